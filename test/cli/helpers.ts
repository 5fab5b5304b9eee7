import { Readable } from "node:stream";
import { expect } from "vitest";
import { runCli } from "../../src/cli/run.js";
import type { Output } from "../../src/cli/output.js";
import { openOperatorServices } from "../../src/operator-services.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { commandEnv } from "../helpers/process.js";

// Commands run in the test process through runCli, as src/cli.ts runs them but without a
// process of their own (each start costs a second or more of CPU, about 50 times over). What stays a
// process, because the process is what it proves: test/process/bootstrap.test.ts (`src/cli.ts`'s exit
// statuses and output, success and failure) and test/cli/embedded-server.test.ts (a command
// line, its working directory and piped standard input carried to a running server's operator
// channel, and the data directory's lock between processes).

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A command line run to completion in this process: its exit status and what it printed, as
 * src/cli.ts would print it. `env` is its whole environment over the tests' defaults, as a
 * process of its own would get (commandEnv); `input` its standard input, else an empty one.
 */
export async function runCommand(
  args: string[],
  env: Record<string, string | undefined>,
  opts: { cwd?: string; input?: string } = {},
): Promise<CliRun> {
  const printed = { stdout: "", stderr: "" };
  const output: Output = {
    out: (text) => void (printed.stdout += `${text}\n`),
    err: (text) => void (printed.stderr += `${text}\n`),
  };
  const stdin = () => Readable.from(opts.input === undefined ? [] : [Buffer.from(opts.input)]);
  const code = await runCli(args, output, {
    env: commandEnv(env),
    cwd: opts.cwd ?? process.cwd(),
    stdin,
    open: openOperatorServices,
  });
  return { code, ...printed };
}

export interface CliBox {
  db: TestDatabase;
  /** The service's environment, as an operator's shell on the server has it. */
  env: Record<string, string | undefined>;
  /** One command line, to completion (runCommand). */
  run(args: string[]): Promise<CliRun>;
  /** Runs with `--json`, expects success and an empty stderr, and parses stdout. */
  json(args: string[]): Promise<any>;
  /** Runs with `--json`, expects `code`, nothing on stdout, and parses the error object on stderr. */
  fails(
    args: string[],
    code: number,
  ): Promise<{ reason: string; message: string; violations?: Array<{ field: string; description: string }> }>;
}

/**
 * A fresh database and a CLI bound to it (on PGlite, a server started on it meanwhile runs the
 * commands: docs/cli.md); `extraEnv` is added to the service's environment.
 */
export async function cliBox(extraEnv: Record<string, string> = {}): Promise<CliBox> {
  const db = await createTestDatabase();
  const env = {
    DATA_DIR: db.dataDir,
    DATABASE_URL: db.databaseUrl,
    PUBLIC_URL: "https://gatehouse.example.com",
    ...extraEnv,
  };
  const run = (args: string[]) => runCommand(args, env);
  return {
    db,
    env,
    run,
    async json(args) {
      const result = await run([...args, "--json"]);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
      return JSON.parse(result.stdout);
    },
    async fails(args, code) {
      const result = await run([...args, "--json"]);
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code, stdout: "" });
      return JSON.parse(result.stderr);
    },
  };
}

/**
 * What most command tests start from, made with the CLI: an organization (`org`, "Acme") with a
 * project (`project`, "Shop", allowing https://app.example.com), and another organization
 * (`other`) whose owner must not reach it.
 */
export async function orgsWithProject(box: CliBox): Promise<{ org: string; other: string; project: string }> {
  const orgCreate = async (name: string, email: string) =>
    (await box.json(["org", "create", "--name", name, "--email", email, "--password", "operator-password-1"]))
      .organization.id as string;
  const org = await orgCreate("Acme", "ops@acme.test");
  const other = await orgCreate("Other", "ops@other.test");
  const created = await box.json([
    "project",
    "create",
    "--org",
    org,
    "--name",
    "Shop",
    "--allowed-origin",
    "https://app.example.com",
    "--redirect-url",
    "https://app.example.com/cb",
  ]);
  return { org, other, project: created.id as string };
}
