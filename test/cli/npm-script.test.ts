import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { commandEnv } from "../helpers/process.js";
import { serviceBuild } from "../helpers/service-build.js";
import { runCommand } from "./helpers.js";

// `npm run gatehouse` runs the build (dist/src/cli.js), not the source through tsx, which is a
// development tool only (issue 47: its start-up cost about 2 s per call). Run here in the tree
// `npm start` would run, the suite's build (test/helpers/service-build.ts): package.json, its
// node_modules and dist/.
describe("npm run gatehouse", () => {
  it("runs the built command line, with the same answer as the source's", async () => {
    const { stdout, stderr } = await promisify(execFile)("npm", ["run", "-s", "gatehouse", "--", "--help"], {
      cwd: serviceBuild(),
      env: commandEnv({}),
    });
    expect(stderr).toBe("");
    expect(stdout).toBe((await runCommand(["--help"], {})).stdout);
  });
});
