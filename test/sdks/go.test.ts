import { afterAll, beforeAll, describe } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { GOCODE, goMissing, skipReason } from "./toolchain.js";
import { quickstartSuite } from "./quickstart.js";
import { run } from "./run.js";
import { WAIT_GUARD_MS, longTest } from "../helpers/patience.js";

// The Go SDK (sdk/go: the generated stubs and package gatehouse) through its quickstart example.
// The module proxy is not reachable, so it builds in GOPATH mode against Debian's Go sources:
// a scratch GOPATH holds sdk/go as gatehouse.dev/sdk/go, beside /usr/share/gocode.
const missing = skipReason(goMissing());
const root = resolve(import.meta.dirname, "../..");

describe.skipIf(missing !== undefined)(`Go SDK${missing ? ` (skipped: ${missing})` : ""}`, () => {
  let gopath = "";
  beforeAll(() => {
    gopath = mkdtempSync(join(tmpdir(), "gatehouse-gopath-"));
    mkdirSync(join(gopath, "src/gatehouse.dev/sdk"), { recursive: true });
    symlinkSync(join(root, "sdk/go"), join(gopath, "src/gatehouse.dev/sdk/go"));
  });
  afterAll(() => rmSync(gopath, { recursive: true, force: true }));

  quickstartSuite("Unauthenticated", longTest(2), (env) =>
    run("go", ["run", "gatehouse.dev/sdk/go/examples/quickstart"], {
      cwd: gopath,
      env: { ...process.env, ...env, GO111MODULE: "off", GOPATH: `${gopath}:${GOCODE}`, GOPROXY: "off", GOFLAGS: "" },
      // The first build compiles grpc-go and protobuf (about a minute on two busy cores);
      // later ones come from Go's build cache.
      timeoutMs: 4 * WAIT_GUARD_MS,
    }),
  );
});
