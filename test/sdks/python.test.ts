import { describe } from "vitest";
import { pythonMissing, skipReason } from "./toolchain.js";
import { quickstartSuite } from "./quickstart.js";
import { runPython } from "./python-run.js";
import { TEST_GUARD_MS } from "../helpers/patience.js";

// The Python SDK (sdk/python: the generated grpcio stubs and gatehouse_sdk) through its
// quickstart example, with Debian's python3-grpcio and python3-protobuf.
const missing = skipReason(pythonMissing());

describe.skipIf(missing !== undefined)(`Python SDK${missing ? ` (skipped: ${missing})` : ""}`, () => {
  quickstartSuite("UNAUTHENTICATED", TEST_GUARD_MS, (env) => runPython(["sdk/python/examples/quickstart.py"], env));
});
