import { afterAll, beforeAll, describe } from "vitest";
import { goMissing, skipReason } from "./toolchain.js";
import { goWorkspace, type GoWorkspace } from "./go-workspace.js";
import { quickstartSuite } from "./quickstart.js";
import { run } from "./run.js";
import { WAIT_GUARD_MS, longTest } from "../helpers/patience.js";

// The Go SDK (sdk/go: the generated stubs and package gatehouse) through its quickstart example,
// built in a scratch GOPATH against Debian's Go sources (go-workspace.ts).
const missing = skipReason(goMissing());

describe.skipIf(missing !== undefined)(`Go SDK${missing ? ` (skipped: ${missing})` : ""}`, () => {
  let workspace: GoWorkspace;
  beforeAll(() => {
    workspace = goWorkspace();
  });
  afterAll(() => workspace?.remove());

  quickstartSuite("Unauthenticated", longTest(2), (env) =>
    run("go", ["run", "gatehouse.dev/sdk/go/examples/quickstart"], {
      cwd: workspace.dir,
      env: { ...workspace.env, ...env },
      // The first build compiles grpc-go and protobuf; later ones come from Go's build cache.
      timeoutMs: 4 * WAIT_GUARD_MS,
    }),
  );
});
