import type { Logger as PinoLogger } from "pino";
import type { Logger as TypeOrmLogger } from "typeorm";

/**
 * TypeORM's logger routed into pino. Parameters are never logged: they carry token and password
 * hashes. Failed queries go to debug because expected failures (unique violations) are
 * translated and handled by callers, who log what matters.
 */
export function typeormLogger(logger: PinoLogger): TypeOrmLogger {
  return {
    logQuery: (query) => logger.trace({ query }, "sql"),
    logQueryError: (error, query) =>
      logger.debug({ query, err: error instanceof Error ? error.message : error }, "sql failed"),
    logQuerySlow: (time, query) => logger.warn({ query, ms: time }, "slow sql"),
    logSchemaBuild: (message) => logger.debug(message),
    logMigration: (message) => logger.info(message),
    log: (level, message) => (level === "warn" ? logger.warn(message) : logger.debug(message)),
  };
}
