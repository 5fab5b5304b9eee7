import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect } from "vitest";
import { WAIT_GUARD_MS } from "../helpers/patience.js";
import { run } from "../sdks/run.js";
import { GOCODE, skipReason } from "../sdks/toolchain.js";
import { relyingPartySuite } from "./relying-party-suite.js";

// A relying party no one here wrote: go-oidc with golang.org/x/oauth2 (Debian
// golang-github-coreos-go-oidc-dev and golang-golang-x-oauth2-dev), in a small Go web application
// (test/fixtures/oidc-rp/go-oidc) that signs its users in with Gatehouse through the code flow
// with PKCE, verifies the ID token against the JWKS, calls userinfo and refreshes; the browser is
// a cookie jar and the sign-in happens over the API. The module proxy is not reachable, so it is
// built in GOPATH mode against Debian's Go sources, once, into a scratch directory.

const PACKAGES = "golang-go golang-github-coreos-go-oidc-dev golang-golang-x-oauth2-dev";
function goOidcMissing(): string | undefined {
  const sources = [
    "github.com/coreos/go-oidc/verify.go",
    "golang.org/x/oauth2/oauth2.go",
    "gopkg.in/square/go-jose.v2/jws.go",
    "github.com/pquerna/cachecontrol",
  ];
  const absent = sources.filter((path) => !existsSync(`${GOCODE}/src/${path}`));
  let go = true;
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
  } catch {
    go = false;
  }
  if (go && absent.length === 0) return undefined;
  return `${[...(go ? [] : ["go"]), ...absent].join(", ")} not found; apt-get install ${PACKAGES}`;
}
const missing = skipReason(goOidcMissing());
const SOURCE = resolve(import.meta.dirname, "../fixtures/oidc-rp/go-oidc");

relyingPartySuite("go-oidc", missing, async () => {
  const scratch = mkdtempSync(join(tmpdir(), "gatehouse-go-oidc-"));
  const binary = join(scratch, "rp");
  // Go's build cache (under HOME) keeps later builds to seconds; the first compiles go-jose and x/oauth2.
  const build = await run("go", ["build", "-o", binary, "main.go"], {
    cwd: SOURCE,
    env: { ...process.env, GO111MODULE: "off", GOPATH: GOCODE, GOPROXY: "off", GOFLAGS: "" },
    timeoutMs: 2 * WAIT_GUARD_MS,
  });
  expect(build.code, `go build:\n${build.stderr}`).toBe(0);
  return { command: binary, args: [], cleanup: () => rmSync(scratch, { recursive: true, force: true }) };
});
