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
