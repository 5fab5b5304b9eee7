import type { Database } from "./database.js";
import { empty, int, row, sql, statements, text, type Statement } from "./sql/index.js";

// Not the entity's shape (LimitCountEntity types `expire` as bigint text): the number the limits compare.
const countRow = row({ key: text, points: int, expire: int });
const standingRow = row({ key: text, points: int, expire: int, others: int });

/** A count as the limits read it: expiries are epoch milliseconds of the system clock. */
export interface StoredCount {
  key: string;
  points: number;
  expire: number;
}

/** A count and how many tries are announced under its key (limit_tries). */
export interface CountStanding extends StoredCount {
  others: number;
}

/**
 * The account's wait, set in the statement that counts a failure once the count of `ofKey`
 * reaches `threshold`: `stepSeconds` for each failure past it, at most `maxSeconds`.
 */
export interface WaitProgression {
  waitKey: string;
  ofKey: string;
  threshold: number;
  stepSeconds: number;
  maxSeconds: number;
}

/**
 * The rate limiter's tables on the service's own database (src/limits/counts-postgres.ts and
 * in-flight-postgres.ts hold the policy, these the statements): `limit_counts`, one row per
 * count, and `limit_tries`, one row per try in flight and subject. On the data source, never a
 * transaction's: the limits are only ever consulted outside one.
 */
export function rateLimitTables(db: Pick<Database, "dataSource">) {
  const run = statements(db.dataSource.manager);
  // Counts each key once more (a count past its expiry starts again at 1), in one statement.
  const counted = (keys: string[], expires: number[], now: number): Statement =>
    sql`INSERT INTO limit_counts (key, points, expire)
          SELECT k, 1, e FROM unnest(${keys}::varchar[], ${expires}::bigint[]) AS t(k, e)
        ON CONFLICT (key) DO UPDATE SET
          points = CASE WHEN limit_counts.expire <= ${now} THEN 1 ELSE limit_counts.points + 1 END,
          expire = CASE WHEN limit_counts.expire <= ${now} THEN EXCLUDED.expire ELSE limit_counts.expire END
        RETURNING key, points, expire`;
  const withdraw = (id: string, subjects: string[]) =>
    sql`DELETE FROM limit_tries WHERE id = ${id}::uuid AND subject = ANY(${subjects}::varchar[])`;

  return {
    /** Deletes the counts whose window ended before `now`. */
    async sweepCounts(now: number): Promise<void> {
      await run.execute(sql`DELETE FROM limit_counts WHERE expire <= ${now}`);
    },

    /** Counts each key once; `expires[i]` is the end of a new window for `keys[i]`. */
    async take(keys: string[], expires: number[], now: number): Promise<StoredCount[]> {
      return run.rows(counted(keys, expires, now), countRow);
    },

    /** One point back to each live count that has one. */
    async giveBack(keys: string[], now: number): Promise<void> {
      await run.execute(
        sql`UPDATE limit_counts SET points = points - 1 WHERE key = ANY(${keys}::varchar[]) AND points > 0 AND expire > ${now}`,
      );
    },

    async forget(keys: string[]): Promise<void> {
      await run.execute(sql`DELETE FROM limit_counts WHERE key = ANY(${keys}::varchar[])`);
    },

    async put(key: string, points: number, expire: number): Promise<void> {
      await run.execute(
        sql`INSERT INTO limit_counts (key, points, expire) VALUES (${key}, ${points}, ${expire})
            ON CONFLICT (key) DO UPDATE SET points = EXCLUDED.points, expire = EXCLUDED.expire`,
      );
    },

    /** Deletes the announcements whose lease ended before `now` (an instance died mid-check). */
    async sweepTries(now: number): Promise<void> {
      await run.execute(sql`DELETE FROM limit_tries WHERE expire <= ${now}`);
    },

    /** Announces the try under each subject until `lease`, in a statement of its own. */
    async announce(id: string, subjects: string[], lease: number): Promise<void> {
      await run.execute(
        sql`INSERT INTO limit_tries (subject, id, expire)
              SELECT s, ${id}::uuid, ${lease} FROM unnest(${subjects}::varchar[]) AS s`,
      );
    },

    async withdraw(id: string, subjects: string[]): Promise<void> {
      await run.execute(withdraw(id, subjects));
    },

    /**
     * Withdraws the try and deletes the `forget` counts. A count being written right now (a
     * failure counted at this moment) is skipped, not waited for: a right answer never queues
     * behind a row lock, and the failures stay.
     */
    async withdrawForgetting(id: string, subjects: string[], forget: string[]): Promise<void> {
      await run.execute(
        sql`WITH withdrawn AS (${withdraw(id, subjects)})
            DELETE FROM limit_counts WHERE key IN (
              SELECT key FROM limit_counts WHERE key = ANY(${forget}::varchar[])
              FOR UPDATE SKIP LOCKED)`,
      );
    },

    /** Each key's live count (0 when none) and the live tries announced under it, but `self`'s. */
    async standings(keys: string[], now: number, self?: string): Promise<CountStanding[]> {
      return run.rows(
        sql`SELECT k.key, COALESCE(c.points, 0) AS points, COALESCE(c.expire, 0) AS expire,
                   (SELECT count(*) FROM limit_tries t
                     WHERE t.subject = k.key AND t.expire > ${now}
                       ${self === undefined ? empty : sql`AND t.id <> ${self}::uuid`}) AS others
              FROM unnest(${keys}::varchar[]) AS k(key)
              LEFT JOIN limit_counts c ON c.key = k.key AND c.expire > ${now}`,
        standingRow,
      );
    },

    /**
     * One statement: the failures counted, the wait they bring, and the try's withdrawal commit
     * together. Answers the counts of `keys`.
     */
    async fail(
      id: string,
      subjects: string[],
      keys: string[],
      expires: number[],
      now: number,
      wait?: WaitProgression,
    ): Promise<StoredCount[]> {
      return run.rows(
        sql`WITH counted AS (${counted(keys, expires, now)})${wait ? sql`, waited AS (${waitStatement(wait, now)})` : empty},
            withdrawn AS (${withdraw(id, subjects)})
            SELECT key, points, expire FROM counted`,
        countRow,
      );
    },
  };
}

export type RateLimitTables = ReturnType<typeof rateLimitTables>;

/** Sets the account's wait when the failure just counted reaches its threshold (the progression, in SQL). */
function waitStatement(wait: WaitProgression, now: number): Statement {
  return sql`INSERT INTO limit_counts (key, points, expire)
               SELECT ${wait.waitKey}::varchar, 1,
                      ${now}::bigint + 1000 * LEAST(${wait.maxSeconds}::int,
                        ${wait.stepSeconds}::int * (points - ${wait.threshold}::int + 1))
                 FROM counted WHERE key = ${wait.ofKey} AND points >= ${wait.threshold}::int
             ON CONFLICT (key) DO UPDATE SET points = EXCLUDED.points, expire = EXCLUDED.expire`;
}
