import { resolve } from "node:path";
import { PYTHON } from "./toolchain.js";
import { run, type Run } from "./run.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";

export const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Runs Python with sdk/python on its import path: a file of the checkout (an example) or, with
 * `-c`, a program the test holds. Bounded by the wait guard, so a hung call fails the test.
 */
export function runPython(args: string[], env: Record<string, string>): Promise<Run> {
  return run(PYTHON, args, {
    cwd: ROOT,
    // No __pycache__ in the checkout: CI checks that sdk/python holds only what is committed.
    env: { ...process.env, ...env, PYTHONPATH: resolve(ROOT, "sdk/python"), PYTHONDONTWRITEBYTECODE: "1" },
    timeoutMs: WAIT_GUARD_MS,
  });
}

/** The exit code and output of a run, for an assertion's message. */
export function described(result: Run): string {
  return `exit code ${result.code}; stdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
}
