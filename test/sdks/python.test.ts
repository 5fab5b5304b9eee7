import { describe } from "vitest";
import { resolve } from "node:path";
import { PYTHON, pythonMissing, skipReason } from "./toolchain.js";
import { quickstartSuite } from "./quickstart.js";
import { run } from "./run.js";
import { TEST_GUARD_MS, WAIT_GUARD_MS } from "../helpers/patience.js";

// The Python SDK (sdk/python: the generated grpcio stubs and gatehouse_sdk) through its
// quickstart example, with Debian's python3-grpcio and python3-protobuf.
const missing = skipReason(pythonMissing());
const root = resolve(import.meta.dirname, "../..");

describe.skipIf(missing !== undefined)(`Python SDK${missing ? ` (skipped: ${missing})` : ""}`, () => {
  quickstartSuite("UNAUTHENTICATED", TEST_GUARD_MS, (env) =>
    run(PYTHON, ["sdk/python/examples/quickstart.py"], {
      cwd: root,
      // No __pycache__ in the checkout: CI checks that sdk/python holds only what is committed.
      env: { ...process.env, ...env, PYTHONPATH: resolve(root, "sdk/python"), PYTHONDONTWRITEBYTECODE: "1" },
      timeoutMs: WAIT_GUARD_MS,
    }),
  );
});
