import { loadConfig } from "../../src/config.js";
import { startGatehouse, type Gatehouse } from "../../src/app.js";
import { createLogger, type Logger } from "../../src/log.js";
import type { Clock } from "../../src/domain/clock.js";
import { createTestDatabase, type TestDatabase } from "./database.js";
import { TEST_DATABASE_TIMEOUT_MS } from "./patience.js";

export interface TestServer extends Gatehouse {
  database: TestDatabase;
  /** Stops the server and drops its database. */
  stop(): Promise<void>;
}

/** Cheap argon2 parameters: tests exercise the flows, not the hash cost. */
export const TEST_ARGON2_ENV = { ARGON2_MEMORY_KIB: "1024", ARGON2_TIME_COST: "1" };

/**
 * One GATEHOUSE_SECRET for every server and command of the tests, as the instances and command
 * lines of one database share theirs: required with DATABASE_URL (config.ts). A test of the
 * generated key sets it to "" (absent).
 */
export const TEST_SECRET_ENV = { GATEHOUSE_SECRET: "5d1c0a7e9b3f4e2a8c6d0b1f3e5a7c9d2b4f6a8c0e1d3f5b7a9c2e4d6f8a0b1c" };

/**
 * The real server on a free port with a fresh database: PostgreSQL when DATABASE_URL is
 * set, else embedded PGlite in a temporary folder. `options.clock` replaces the system clock
 * (test/helpers/clock.ts), so a test moves time instead of editing rows; `options.logger`
 * replaces the one LOG_LEVEL makes, for a test that reads the log lines.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  database?: TestDatabase,
  options: { clock?: Clock; logger?: Logger } = {},
): Promise<TestServer> {
  const db = database ?? (await createTestDatabase());
  const config = loadConfig({
    ...TEST_ARGON2_ENV,
    ...TEST_SECRET_ENV,
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: db.dataDir,
    DATABASE_URL: db.databaseUrl,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    DATABASE_TIMEOUT_MS: TEST_DATABASE_TIMEOUT_MS,
    ...env,
  });
  const gatehouse = await startGatehouse(config, {
    logger: options.logger ?? createLogger(config.logLevel),
    clock: options.clock,
  });
  return {
    ...gatehouse,
    database: db,
    async stop() {
      await gatehouse.close();
      if (!database) await db.drop();
    },
  };
}
