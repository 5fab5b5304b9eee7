import { expect } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { runNode } from "../helpers/process.js";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliBox {
  db: TestDatabase;
  /** The service's environment, as an operator's shell on the server has it. */
  env: Record<string, string | undefined>;
  /** `node --import tsx src/cli.ts …` as its own process, to completion. */
  run(args: string[]): Promise<CliRun>;
  /** Runs with `--json`, expects success and an empty stderr, and parses stdout. */
  json(args: string[]): Promise<any>;
  /** Runs with `--json`, expects `code`, nothing on stdout, and parses the error object on stderr. */
  fails(args: string[], code: number): Promise<{ reason: string; message: string; violations?: Array<{ field: string; description: string }> }>;
}

/** A fresh database and a CLI bound to it (on PGlite, a server started on it meanwhile runs the commands: docs/cli.md). */
export async function cliBox(): Promise<CliBox> {
  const db = await createTestDatabase();
  const env = { DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl, PUBLIC_URL: "https://gatehouse.example.com" };
  const run = (args: string[]) => runNode(["src/cli.ts", ...args], env);
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
