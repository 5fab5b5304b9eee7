import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "../sdks/run.js";

// The third-party tools a user points at the document, run as that user would: the installed
// CLIs, as child processes (async: they may call the test's in-process server).

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);
export const REDOCLY_CONFIG = join(ROOT, "redocly.yaml");

// Nothing but loopback: no usage report, no check for a newer release.
const ENV = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
const TOOL_TIMEOUT_MS = 120_000;

export interface LintProblem {
  ruleId: string;
  severity: string;
  message: string;
  location: Array<{ pointer: string }>;
}

/** `redocly lint` of one file with the repository's redocly.yaml: its exit code and every problem. */
export async function redoclyLint(file: string): Promise<{ code: number | null; problems: string[] }> {
  const result = await run(bin("redocly"), ["lint", file, "--config", REDOCLY_CONFIG, "--format=json"], {
    cwd: ROOT,
    env: ENV,
    timeoutMs: TOOL_TIMEOUT_MS,
  });
  let report: { problems: LintProblem[] };
  try {
    report = JSON.parse(result.stdout);
  } catch {
    throw new Error(`redocly lint wrote no report (exit ${result.code}): ${result.stderr}`);
  }
  const problems = report.problems.map(
    (p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? "?"}: ${p.message}`,
  );
  return { code: result.code, problems };
}

/**
 * A folder for one check's files inside node_modules/.cache, so the programs written there
 * resolve `openapi-fetch` (and tsc its types) from the repository's node_modules, as a user's
 * project would from its own. Removed by the returned function.
 */
export async function workFolder(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const parent = join(ROOT, "node_modules", ".cache");
  await mkdir(parent, { recursive: true });
  const dir = await mkdtemp(join(parent, prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** `openapi-typescript <document> -o <out>`: the CLI's exit code and output. */
export async function openapiTypescript(document: string, out: string) {
  return run(bin("openapi-typescript"), [document, "-o", out], { cwd: ROOT, env: ENV, timeoutMs: TOOL_TIMEOUT_MS });
}

/** A strict ES module project in `dir` with the given files. */
export async function writeProject(dir: string, files: Record<string, string>): Promise<void> {
  const tsconfig = {
    compilerOptions: {
      strict: true,
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2022", "DOM"],
      types: [],
      outDir: "out",
    },
    include: ["*.ts"],
  };
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
}

/** `tsc -p <dir>`: the diagnostics as `file:line TScode` (the file's name only), one per error. */
export async function tsc(dir: string): Promise<{ code: number | null; errors: string[]; output: string }> {
  const result = await run(bin("tsc"), ["-p", dir, "--pretty", "false"], {
    cwd: dir,
    env: ENV,
    timeoutMs: TOOL_TIMEOUT_MS,
  });
  // By file name alone: tsc writes the path relative to its cwd, through any symbolic link.
  const errors = [...result.stdout.matchAll(/^(?:\S*\/)?([^/\s(]+)\((\d+),\d+\): error (TS\d+)/gm)].map(
    ([, file, line, code]) => `${file}:${line} ${code}`,
  );
  return { code: result.code, errors, output: result.stdout + result.stderr };
}
