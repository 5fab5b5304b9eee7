import { execFile } from "node:child_process";

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end and answers its exit code and output (a failure is an answer, not a throw). */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string | undefined>; timeoutMs: number },
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env, timeout: options.timeoutMs },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The `key=value` pairs of the first output line starting with `prefix`. */
export function fields(stdout: string, prefix: string): Record<string, string> {
  const line = stdout.split("\n").find((l) => l.startsWith(prefix));
  if (!line) return {};
  return Object.fromEntries(
    line
      .slice(prefix.length)
      .trim()
      .split(/\s+/)
      .map((pair) => pair.split("=", 2) as [string, string]),
  );
}
