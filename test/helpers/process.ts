import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { onTestFinished } from "vitest";
import { createTestDatabase } from "./database.js";
import { TEST_DATABASE_TIMEOUT_MS, WAIT_GUARD_MS } from "./patience.js";
import { TEST_ARGON2_ENV, TEST_SECRET_ENV } from "./server.js";
import { builtEntry } from "./service-build.js";

export interface ServiceProcess {
  child: ChildProcessWithoutNullStreams;
  port: number;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

const LISTENING = /"port":(\d+)[^\n]*"msg":"gatehouse listening"/;

export interface SpawnOptions {
  /** What to run instead of this node (`npm`, from PATH). */
  command?: string;
  cwd?: string;
  /** Its own process group (led by the child), so a test can signal or sweep the whole group. */
  detached?: boolean;
}

/**
 * Runs the service as its own process (the tree's build of src/main.ts,
 * test/helpers/service-build.ts, unless `args` say otherwise) and waits until it listens: until
 * a stdout line matches `ready`, whose first group is the port.
 */
export async function spawnService(
  env: Record<string, string | undefined>,
  ready: RegExp = LISTENING,
  args = [builtEntry("src/main.ts")],
  options: SpawnOptions = {},
): Promise<ServiceProcess> {
  const { child, exited, output } = run(args, env, options);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`service did not start:\n${output.err}\n${output.out}`)),
      WAIT_GUARD_MS,
    );
    child.stdout.on("data", () => {
      const match = ready.exec(output.out);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}:\n${output.err}`));
    });
  });
  return { child, port, exited, stdout: () => output.out, stderr: () => output.err };
}

/**
 * Runs an entry point of the project (`src/cli.ts …`, from the tree's build) to completion; `cwd`
 * elsewhere than the project, `input` on its standard input.
 */
export async function runNode(
  args: string[],
  env: Record<string, string | undefined>,
  opts: { cwd?: string; input?: string } = {},
) {
  const [source, ...rest] = args;
  const { child, exited, output } = run([builtEntry(source), ...rest], env, { cwd: opts.cwd });
  if (opts.input !== undefined) child.stdin.end(opts.input);
  const code = await exited;
  return { code, stdout: output.out, stderr: output.err };
}

/**
 * The whole environment a command of the project gets here: `env` over the tests' defaults and
 * nothing else of this process's, so what the suite runs on (DATABASE_URL, REDIS_URL) does not
 * leak in. test/cli/helpers.ts hands the same to commands it runs in this process.
 */
export function commandEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...TEST_ARGON2_ENV,
    ...TEST_SECRET_ENV,
    LOG_LEVEL: "info",
    DATABASE_TIMEOUT_MS: TEST_DATABASE_TIMEOUT_MS,
    ...env,
  };
}

function run(args: string[], env: Record<string, string | undefined>, options: SpawnOptions = {}) {
  const child = spawn(options.command ?? process.execPath, args, {
    cwd: options.cwd,
    detached: options.detached,
    env: commandEnv(env),
    stdio: ["pipe", "pipe", "pipe"],
  });
  const output = { out: "", err: "" };
  child.stdout.on("data", (d) => (output.out += d));
  child.stderr.on("data", (d) => (output.err += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, output };
}

/**
 * A migrated database of its own for the running test, dropped when it ends, and the environment
 * that points a service process at it (any free port, loopback only).
 */
export async function serviceDatabase() {
  const db = await createTestDatabase();
  onTestFinished(() => db.drop());
  return { db, env: { DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl, PORT: "0", HOST: "127.0.0.1" } };
}
