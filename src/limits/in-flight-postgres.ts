import type { Logger } from "../log.js";
import type { Database } from "../store/database.js";
import { rateLimitTables } from "../store/rate-limits.js";
import { countKey, sortedKeys, wholeSeconds, type Count, type CountRef } from "./counts.js";
import type { InFlightTries, Looked } from "./in-flight.js";

/** How often announcements left behind (an instance that died mid-check) are deleted. */
const SWEEP_MS = 5 * 60_000;

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
  const tables = rateLimitTables(db);
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () =>
    tables
      .sweepTries(Date.now())
      .catch((error: unknown) => logger.warn({ err: error }, "could not delete expired rate limit tries"));
  const startSweeping = () => (sweeper ??= setInterval(() => void sweep(), SWEEP_MS).unref());
  const withdraw = (id: string, subjects: CountRef[]) => tables.withdraw(id, sortedKeys(subjects));

  // Each subject's failures and the tries announced under it (but `self`), and the `also` counts.
  const look = async (subjects: CountRef[], also: CountRef[], self?: string): Promise<Looked> => {
    const now = Date.now();
    const keys = [...new Set([...subjects, ...also].map(countKey))];
    const rows = await tables.standings(keys, now, self);
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
      await tables.announce(id, sortedKeys(subjects), lease);
      return look(subjects, also, id).catch(async (error: unknown) => {
        // No look, no check: the announcement would only hold a place until its lease ends.
        await withdraw(id, subjects).catch(() => undefined);
        throw error;
      });
    },

    look: (subjects, also) => look(subjects, also),

    async leave(id, subjects, forget) {
      await (forget.length === 0
        ? withdraw(id, subjects)
        : tables.withdrawForgetting(id, sortedKeys(subjects), sortedKeys(forget)));
    },

    async fail(id, subjects, wait) {
      startSweeping();
      const now = Date.now();
      const keys = sortedKeys(subjects);
      const expires = keys.map(
        // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- each key was made from one of subjects
        (k) => now + wholeSeconds(subjects.find((r) => countKey(r) === k)!.windowSeconds) * 1000,
      );
      // One statement: the failures, the wait they bring, and the withdrawal commit together.
      const progression = wait && {
        waitKey: countKey(wait.wait),
        ofKey: countKey(wait.of),
        threshold: wait.threshold,
        stepSeconds: wait.stepSeconds,
        maxSeconds: wait.maxSeconds,
      };
      const rows = await tables.fail(id, sortedKeys(subjects), keys, expires, now, progression);
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
