import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  signInThroughRelyingParty,
  startRelyingParty,
  useOpenidWorld,
  type OpenidProject,
  type RelyingParty,
} from "../helpers/openid-provider-world.js";
import { WAIT_GUARD_MS, longTest } from "../helpers/patience.js";
import { closedPort } from "../helpers/ports.js";
import { run } from "../sdks/run.js";
import { GOCODE, skipReason } from "../sdks/toolchain.js";

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

const world = useOpenidWorld();

describe.skipIf(missing !== undefined)(`go-oidc as a relying party${missing ? ` (skipped: ${missing})` : ""}`, () => {
  let p: OpenidProject;
  let rp: RelyingParty;
  let clientId = "";
  let scratch = "";

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "gatehouse-go-oidc-"));
    const binary = join(scratch, "rp");
    // Go's build cache (under HOME) keeps later builds to seconds; the first compiles go-jose and x/oauth2.
    const build = await run("go", ["build", "-o", binary, "main.go"], {
      cwd: SOURCE,
      env: { ...process.env, GO111MODULE: "off", GOPATH: GOCODE, GOPROXY: "off", GOFLAGS: "" },
      timeoutMs: 2 * WAIT_GUARD_MS,
    });
    expect(build.code, `go build:\n${build.stderr}`).toBe(0);

    p = await world.project();
    const port = await closedPort();
    const client = await p.createClient({
      name: "go-oidc app",
      type: "confidential",
      redirect_uris: [`http://127.0.0.1:${port}/callback`],
      grant_types: ["authorization_code", "refresh_token"],
    });
    clientId = client.client_id;
    rp = await startRelyingParty(binary, [], {
      port,
      env: { ISSUER: p.issuer, CLIENT_ID: client.client_id, CLIENT_SECRET: client.client_secret },
    });
  }, longTest(1.5));
  afterAll(async () => {
    await rp?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("signs a user in: verified ID token, userinfo, refresh, a JWT access token for the client", async () => {
    const userId = await p.signUp("ada@example.com");
    const { status, body } = await signInThroughRelyingParty(world, p, rp, "ada@example.com");
    expect(status, `${JSON.stringify(body)}\n${rp.output()}`).toBe(200);
    expect(body.id_token_claims).toMatchObject({ iss: p.issuer, sub: userId, aud: clientId, email: "ada@example.com" });
    expect(body.userinfo).toMatchObject({ sub: userId, email: "ada@example.com" });
    expect(body).toMatchObject({ refreshed: true, refresh_token_rotated: true });
    expect(body.access_token_claims).toMatchObject({ iss: p.issuer, sub: userId, aud: clientId });
    expect(String(body.access_token_claims.scope).split(" ").sort()).toEqual([
      "email",
      "offline_access",
      "openid",
      "profile",
    ]);
  });

  it("reports access_denied when the user denies consent", async () => {
    await p.signUp("grace@example.com");
    const { callback, status, body } = await signInThroughRelyingParty(world, p, rp, "grace@example.com", {
      consent: false,
    });
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(status).toBe(400);
    expect(String(body)).toContain("access_denied");
  });
});
