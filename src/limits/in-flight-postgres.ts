import type { Logger } from "../log.js";
import type { Database } from "../store/database.js";
import { empty, int, row, sql, statements, text } from "../store/sql/index.js";
import { countKey, sortedKeys, sortedKeyWindows, wholeSeconds, type Count, type CountRef } from "./counts.js";
import type { FailureWait, InFlightTries, Looked } from "./in-flight.js";

/** How often announcements left behind (an instance that died mid-check) are deleted. */
const SWEEP_MS = 5 * 60_000;

const standingRow = row({ key: text, points: int, expire: int, others: int });
const countRow = row({ key: text, points: int, expire: int });

const countOf = (found: { points: number; expire: number } | undefined, now: number): Count =>
  found ? { count: found.points, msBeforeReset: Math.max(0, found.expire - now) } : { count: 0, msBeforeReset: 0 };

/**
 * The tries in flight as rows of their own in `limit_tries` (migration 1734300000470), one per
 * try and subject, keyed by the subject's failure count (`fail_account:<project>:<hmac>`): a
 * try inserts and deletes its own rows, so parallel sign-ins of one account touch no row in
 * common, and no row lock or statement timeout stands between them. Failures still go to
 * `limit_counts`, written by wrong answers only. Expiries are epoch milliseconds of the
 * system clock, as the counts' are.
 */
export function postgresInFlight(db: Database, logger: Logger): InFlightTries {
  const run = statements(db.dataSource.manager);
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () =>
    run
      .execute(sql`DELETE FROM limit_tries WHERE expire <= ${Date.now()}`)
      .catch((error: unknown) => logger.warn({ err: error }, "could not delete expired rate limit tries"));
  const startSweeping = () => (sweeper ??= setInterval(() => void sweep(), SWEEP_MS).unref());
  const withdraw = (id: string, subjects: CountRef[]) =>
    sql`DELETE FROM limit_tries WHERE id = ${id}::uuid AND subject = ANY(${sortedKeys(subjects)}::varchar[])`;

  // Each subject's failures and the tries announced under it (but `self`), and the `also` counts.
  const look = async (subjects: CountRef[], also: CountRef[], self?: string): Promise<Looked> => {
    const now = Date.now();
    const keys = [...new Set([...subjects, ...also].map(countKey))];
    const rows = await run.rows(
      sql`SELECT k.key, COALESCE(c.points, 0) AS points, COALESCE(c.expire, 0) AS expire,
                 (SELECT count(*) FROM limit_tries t
                   WHERE t.subject = k.key AND t.expire > ${now}
                     ${self === undefined ? empty : sql`AND t.id <> ${self}::uuid`}) AS others
            FROM unnest(${keys}::varchar[]) AS k(key)
            LEFT JOIN limit_counts c ON c.key = k.key AND c.expire > ${now}`,
      standingRow,
    );
    const found = (ref: CountRef) => {
      const standing = rows.find((r) => r.key === countKey(ref));
      return standing?.points ? standing : undefined;
    };
    return {
      standings: subjects.map((ref) => ({ failures: countOf(found(ref), now), others: found(ref)?.others ?? 0 })),
      also: also.map((ref) => countOf(found(ref), now)),
    };
  };

  return {
    async enter(id, subjects, leaseSeconds, also) {
      startSweeping();
      const lease = Date.now() + wholeSeconds(leaseSeconds) * 1000;
      // Its own statement, committed before the look below: a try that looks later sees this one.
      await run.execute(
        sql`INSERT INTO limit_tries (subject, id, expire)
              SELECT s, ${id}::uuid, ${lease} FROM unnest(${sortedKeys(subjects)}::varchar[]) AS s`,
      );
      return look(subjects, also, id).catch(async (error: unknown) => {
        // No look, no check: the announcement would only hold a place until its lease ends.
        await run.execute(withdraw(id, subjects)).catch(() => undefined);
        throw error;
      });
    },

    look: (subjects, also) => look(subjects, also),

    async leave(id, subjects, forget) {
      await run.execute(
        forget.length === 0
          ? withdraw(id, subjects)
          : // A count being written right now (a failure counted at this moment) is skipped, not
            // waited for: a right answer never queues behind a row lock, and the failures stay.
            sql`WITH withdrawn AS (${withdraw(id, subjects)})
                DELETE FROM limit_counts WHERE key IN (
                  SELECT key FROM limit_counts WHERE key = ANY(${sortedKeys(forget)}::varchar[])
                  FOR UPDATE SKIP LOCKED)`,
      );
    },

    async fail(id, subjects, wait) {
      startSweeping();
      const now = Date.now();
      const { keys, windowSeconds } = sortedKeyWindows(subjects);
      const expires = windowSeconds.map((seconds) => now + wholeSeconds(seconds) * 1000);
      // One statement: the failures, the wait they bring, and the withdrawal commit together.
      const rows = await run.rows(
        sql`WITH counted AS (
              INSERT INTO limit_counts (key, points, expire)
                SELECT k, 1, e FROM unnest(${keys}::varchar[], ${expires}::bigint[]) AS t(k, e)
              ON CONFLICT (key) DO UPDATE SET
                points = CASE WHEN limit_counts.expire <= ${now} THEN 1 ELSE limit_counts.points + 1 END,
                expire = CASE WHEN limit_counts.expire <= ${now} THEN EXCLUDED.expire ELSE limit_counts.expire END
              RETURNING key, points, expire
            )${wait ? sql`, waited AS (${waitStatement(wait, now)})` : empty},
            withdrawn AS (${withdraw(id, subjects)})
            SELECT key, points, expire FROM counted`,
        countRow,
      );
      return subjects.map((ref) =>
        countOf(
          rows.find((r) => r.key === countKey(ref)),
          now,
        ),
      );
    },

    stop() {
      clearInterval(sweeper);
      sweeper = undefined;
    },
  };
}

/** Sets the account's wait when the failure just counted reaches its threshold (the progression, in SQL). */
function waitStatement(wait: FailureWait, now: number) {
  return sql`INSERT INTO limit_counts (key, points, expire)
               SELECT ${countKey(wait.wait)}::varchar, 1,
                      ${now}::bigint + 1000 * LEAST(${wait.maxSeconds}::int,
                        ${wait.stepSeconds}::int * (points - ${wait.threshold}::int + 1))
                 FROM counted WHERE key = ${countKey(wait.of)} AND points >= ${wait.threshold}::int
             ON CONFLICT (key) DO UPDATE SET points = EXCLUDED.points, expire = EXCLUDED.expire`;
}
