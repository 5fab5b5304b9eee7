import type { Logger } from "../log.js";
import type { Database } from "../store/database.js";
import { rateLimitTables } from "../store/rate-limits.js";
import { countKey, sortedKeys, wholeSeconds, type AtomicCounts, type Count } from "./counts.js";

/** How often expired counts are deleted; a count past its expiry is already read as none. */
const SWEEP_MS = 5 * 60_000;

/**
 * Our counts in the service's own database (table `limit_counts`, LimitCountEntity): every
 * instance on one database shares them. PGlite runs the same statements through its one
 * connection, which is safe because the limits are only ever consulted outside a transaction.
 * Expiries are epoch milliseconds of the system clock, as rate-limiter-flexible's are.
 */
export function postgresCounts(db: Database, logger: Logger): AtomicCounts {
  const tables = rateLimitTables(db);
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () =>
    tables
      .sweepCounts(Date.now())
      .catch((error: unknown) => logger.warn({ err: error }, "could not delete expired rate limit counts"));
  // Started by the first count, so a CLI command that never counts starts no timer.
  const startSweeping = () => (sweeper ??= setInterval(() => void sweep(), SWEEP_MS).unref());

  return {
    async take(refs) {
      if (refs.length === 0) return [];
      startSweeping();
      const now = Date.now();
      const keys = sortedKeys(refs);
      // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- each key was made from one of refs
      const expires = keys.map((k) => now + wholeSeconds(refs.find((r) => countKey(r) === k)!.windowSeconds) * 1000);
      const rows = await tables.take(keys, expires, now);
      return refs.map((ref): Count => {
        // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- take answers one row per key it was given
        const counted = rows.find((r) => r.key === countKey(ref))!;
        return { count: counted.points, msBeforeReset: Math.max(0, counted.expire - now) };
      });
    },
    async giveBack(refs) {
      if (refs.length === 0) return;
      await tables.giveBack(sortedKeys(refs), Date.now());
    },
    async forget(refs) {
      if (refs.length === 0) return;
      await tables.forget(sortedKeys(refs));
    },
    async put(ref, points) {
      startSweeping();
      const expire = Date.now() + wholeSeconds(ref.windowSeconds) * 1000;
      await tables.put(countKey(ref), points, expire);
    },
    stop() {
      clearInterval(sweeper);
      sweeper = undefined;
    },
  };
}
