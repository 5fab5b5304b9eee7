import type { Logger } from "../log.js";
import type { Database } from "../store/database.js";
import { int, row, sql, statements, text } from "../store/sql/index.js";
import { countKey, sortedKeys, sortedKeyWindows, wholeSeconds, type AtomicCounts, type Count } from "./counts.js";

/** How often expired counts are deleted; a count past its expiry is already read as none. */
const SWEEP_MS = 5 * 60_000;

const countRow = row({ key: text, points: int, expire: int });

/**
 * Our counts in the service's own database (table `limit_counts`, LimitCountEntity): every
 * instance on one database shares them. PGlite runs the same statements through its one
 * connection, which is safe because the limits are only ever consulted outside a transaction.
 * Expiries are epoch milliseconds of the system clock, as rate-limiter-flexible's are.
 */
export function postgresCounts(db: Database, logger: Logger): AtomicCounts {
  const run = statements(db.dataSource.manager);
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () =>
    run
      .execute(sql`DELETE FROM limit_counts WHERE expire <= ${Date.now()}`)
      .catch((error: unknown) => logger.warn({ err: error }, "could not delete expired rate limit counts"));
  // Started by the first count, so a CLI command that never counts starts no timer.
  const startSweeping = () => (sweeper ??= setInterval(() => void sweep(), SWEEP_MS).unref());

  return {
    async take(refs) {
      if (refs.length === 0) return [];
      startSweeping();
      const now = Date.now();
      const { keys, windowSeconds } = sortedKeyWindows(refs);
      const expires = windowSeconds.map((seconds) => now + wholeSeconds(seconds) * 1000);
      const rows = await run.rows(
        sql`INSERT INTO limit_counts (key, points, expire)
              SELECT k, 1, e FROM unnest(${keys}::varchar[], ${expires}::bigint[]) AS t(k, e)
            ON CONFLICT (key) DO UPDATE SET
              points = CASE WHEN limit_counts.expire <= ${now} THEN 1 ELSE limit_counts.points + 1 END,
              expire = CASE WHEN limit_counts.expire <= ${now} THEN EXCLUDED.expire ELSE limit_counts.expire END
            RETURNING key, points, expire`,
        countRow,
      );
      return refs.map((ref): Count => {
        // The statement inserts or updates every key and returns each row it touched.
        // eslint-disable-next-line @typescript-eslint/no-non-null-assertion
        const counted = rows.find((r) => r.key === countKey(ref))!;
        return { count: counted.points, msBeforeReset: Math.max(0, counted.expire - now) };
      });
    },
    async giveBack(refs) {
      if (refs.length === 0) return;
      await run.execute(
        sql`UPDATE limit_counts SET points = points - 1 WHERE key = ANY(${sortedKeys(refs)}::varchar[]) AND points > 0 AND expire > ${Date.now()}`,
      );
    },
    async forget(refs) {
      if (refs.length === 0) return;
      await run.execute(sql`DELETE FROM limit_counts WHERE key = ANY(${sortedKeys(refs)}::varchar[])`);
    },
    async put(ref, points) {
      startSweeping();
      const expire = Date.now() + wholeSeconds(ref.windowSeconds) * 1000;
      await run.execute(
        sql`INSERT INTO limit_counts (key, points, expire) VALUES (${countKey(ref)}, ${points}, ${expire})
            ON CONFLICT (key) DO UPDATE SET points = EXCLUDED.points, expire = EXCLUDED.expire`,
      );
    },
    stop() {
      clearInterval(sweeper);
      sweeper = undefined;
    },
  };
}
