import { spawn, spawnSync } from "node:child_process";

// Prometheus's own linter, as Debian 12's `prometheus` package installs it (.ci/run installs
// the package). promtool reads the exposition text on stdin and names each problem it finds.
export const PROMTOOL = "promtool";
export const PROMTOOL_PACKAGE = "prometheus";

/** Why promtool cannot run here, or undefined when it can. */
export function promtoolMissing(): string | undefined {
  const probe = spawnSync(PROMTOOL, ["--version"], { stdio: "ignore", timeout: 10_000 });
  return probe.status === 0 ? undefined : `${PROMTOOL} not found; apt-get install ${PROMTOOL_PACKAGE}`;
}

/**
 * Skips a suite when promtool is missing, with the reason in its name, except in CI, which
 * installs it and must never pass by skipping (the pattern of test/sdks/toolchain.ts).
 */
export function promtoolSkipReason(): string | undefined {
  const missing = promtoolMissing();
  if (missing && process.env.CI) throw new Error(`CI must run the promtool check: ${missing}`);
  if (missing) console.warn(`skipped: ${missing}`);
  return missing;
}

export interface Check {
  /** The exit code, or null when it was killed (the time ran out). */
  code: number | null;
  /** stdout and stderr together: promtool prints nothing when it finds nothing. */
  output: string;
}

/**
 * `promtool check metrics` on `text`, asynchronously: the server answering the scrape runs
 * in this process, so a synchronous child would wait on nothing that can move.
 */
export function checkMetrics(text: string, timeoutMs: number): Promise<Check> {
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL, ["check", "metrics"], { stdio: ["pipe", "pipe", "pipe"], timeout: timeoutMs });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}
