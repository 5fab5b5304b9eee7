import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { WAIT_GUARD_MS } from "../helpers/patience.js";

/**
 * A program that answers each line written to its stdin with one line on stdout (the Go verify
 * example): `ask` writes a line and waits for the answer, so a test can change the world (rotate
 * a key) between two questions to the same running process.
 */
export interface LineProcess {
  ask(line: string): Promise<string>;
  /** Closes stdin and answers the exit code and stderr. */
  end(): Promise<{ code: number | null; stderr: string }>;
}

export function lineProcess(command: string, env: Record<string, string | undefined>): LineProcess {
  const child = spawn(command, [], { env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const waiting: ((line: string) => void)[] = [];
  const early: string[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else early.push(line);
  });
  const guard = <T>(promise: Promise<T>, what: string) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        child.kill();
        reject(new Error(`${what}: no answer within ${WAIT_GUARD_MS} ms; stderr:\n${stderr}`));
      }, WAIT_GUARD_MS);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  };
  return {
    ask(line) {
      const answer = early.length > 0 ? Promise.resolve(early.shift()!) : new Promise<string>((r) => waiting.push(r));
      child.stdin.write(`${line}\n`);
      return guard(
        Promise.race([answer, exited.then((code) => Promise.reject(new Error(`exited ${code}; stderr:\n${stderr}`)))]),
        "ask",
      );
    },
    async end() {
      child.stdin.end();
      const code = await guard(exited, "end");
      return { code, stderr };
    },
  };
}
