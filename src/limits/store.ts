import { Redis } from "ioredis";
import {
  RateLimiterPostgres,
  RateLimiterRedis,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from "rate-limiter-flexible";
import { DomainError } from "../domain/errors.js";
import type { Logger } from "../log.js";
import type { Database } from "../store/database.js";

/** The table of src/store/migrations/1733300000000-rate-limits.ts. */
export const RATE_LIMITS_TABLE = "rate_limits";

/** A count that expires a window after its first hit, shared by every instance on the store. */
export interface Counter {
  /** Adds `points` and answers the count now and the milliseconds until the window ends. */
  hit(key: string, points?: number): Promise<Count>;
  /** The count without changing it; zero when there is none. */
  peek(key: string): Promise<Count>;
  /** Sets the count to `points` for exactly `seconds` from now (a wait). */
  set(key: string, points: number, seconds: number): Promise<void>;
  reset(key: string): Promise<void>;
  /** hit() whose window, when this hit starts one, is `seconds` (whole, at least 1) instead of the counter's. */
  hitFor(key: string, seconds: number): Promise<Count>;
}

export interface Count {
  count: number;
  msBeforeReset: number;
}

/** One count of one counter: the counter's name and window, and the key counted. */
export interface CountRef {
  counter: string;
  windowSeconds: number;
  key: string;
}

export interface LimiterStore {
  kind: "postgres" | "redis";
  /** One counter per name and window; asking again answers the same one. */
  counter(name: string, windowSeconds: number): Counter;
  /** Several counts at once, as each counter's peek would answer them: one round trip on PostgreSQL. */
  peekMany(reads: CountRef[]): Promise<Count[]>;
  /**
   * Adds one to each count, atomically in the store, and answers the counts with this one
   * included: one round trip. What a try takes before its work, so that of a burst of
   * parallel tries only those within the limit see a count within it (check-then-act would
   * let every one of them read the same count before any wrote).
   */
  take(refs: CountRef[]): Promise<Count[]>;
  /** Takes back one from each count still in its window and above zero: one round trip. */
  giveBack(refs: CountRef[]): Promise<void>;
  /** Deletes the counts: one round trip. */
  forget(refs: CountRef[]): Promise<void>;
  /**
   * Whether the store answers within `timeoutMs` (the readiness check): a Redis PING. The
   * PostgreSQL store answers true at once, since the readiness check asks the database itself.
   */
  ping(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * rate-limiter-flexible over the service's own database (RateLimiterPostgres through TypeORM's
 * pool), so every instance on one database shares the counts; over Redis when REDIS_URL is set.
 * PGlite takes the same path: it is the same SQL through the same pool of one connection, which
 * is safe because the limits are only ever consulted outside a transaction.
 *
 * The library reads the system clock, not the service's injected one: windows and waits run
 * in real time (the tests use short windows configured on their project).
 */
export function openLimiterStore(options: { db: Database; redisUrl?: string; logger: Logger }): LimiterStore {
  // Connected at the first count, so a CLI command that never counts opens no connection.
  let redis: Promise<Redis> | undefined;
  const redisClient = (url: string) =>
    (redis ??= connectRedis(url).catch((error: unknown) => {
      // Not remembered: the next count tries to connect again.
      redis = undefined;
      throw error;
    }));
  const counters = new Map<string, Counter>();
  // Expired rows are deleted by one limiter only: each would otherwise start its own timer.
  let sweeping = false;
  const make = async (name: string, windowSeconds: number): Promise<RateLimiterAbstract> => {
    // Points are not the limit here (each project sets its own); counts are compared by the caller.
    const common = { keyPrefix: name, points: 2_000_000_000, duration: windowSeconds };
    if (options.redisUrl)
      return new RateLimiterRedis({
        ...common,
        storeClient: await redisClient(options.redisUrl),
        rejectIfRedisNotReady: true,
      });
    const sweep = !sweeping;
    sweeping = true;
    return new RateLimiterPostgres({
      ...common,
      storeClient: options.db.dataSource,
      storeType: "typeorm",
      tableName: RATE_LIMITS_TABLE,
      // The migration made the table; the library must not issue DDL at runtime.
      tableCreated: true,
      clearExpiredByTimeout: sweep,
    });
  };
  return {
    kind: options.redisUrl ? "redis" : "postgres",
    counter(name, windowSeconds) {
      const id = `${name}/${windowSeconds}`;
      let counter = counters.get(id);
      if (!counter) {
        counter = wrap(() => make(name, windowSeconds), options.logger);
        counters.set(id, counter);
      }
      return counter;
    },
    async peekMany(reads) {
      if (options.redisUrl) return Promise.all(reads.map((r) => this.counter(r.counter, r.windowSeconds).peek(r.key)));
      // The library's own read (RateLimiterPostgres._get: `keyPrefix:key`, unexpired) for every
      // key in one statement: a sign-in reads two counts before its password is checked.
      const keys = reads.map((r) => `${r.counter}:${r.key}`);
      const now = Date.now();
      let rows: Array<{ key: string; points: number; expire: string | null }>;
      try {
        rows = (await options.db.dataSource.query(
          `SELECT key, points, expire FROM ${RATE_LIMITS_TABLE} WHERE key = ANY($1) AND (expire > $2 OR expire IS NULL)`,
          [keys, now],
        )) as typeof rows;
      } catch (error) {
        throw storeUnavailable(options.logger, error);
      }
      return keys.map((key) => {
        const row = rows.find((r) => r.key === key);
        return row
          ? { count: row.points, msBeforeReset: row.expire === null ? 0 : Math.max(0, Number(row.expire) - now) }
          : { count: 0, msBeforeReset: 0 };
      });
    },
    async take(refs) {
      if (refs.length === 0) return [];
      // Counts written only here still need the library's sweep of expired rows.
      if (!options.redisUrl && !sweeping) void make("sweep", 60);
      const now = Date.now();
      try {
        if (options.redisUrl) {
          const client = await redisClient(options.redisUrl);
          const answers = (await client.eval(
            TAKE_LUA,
            refs.length,
            ...refs.map(storeKey),
            ...refs.map((r) => String(wholeSeconds(r.windowSeconds))),
          )) as number[];
          return refs.map((_, i) => ({
            count: Number(answers[2 * i]),
            msBeforeReset: Math.max(0, Number(answers[2 * i + 1])),
          }));
        }
        // rate-limiter-flexible's own upsert (RateLimiterPostgres._upsert) for every key in one
        // statement; keys sorted, so two statements over the same keys cannot deadlock.
        const sorted = [...new Set(refs.map(storeKey))].sort();
        const expires = sorted.map(
          (k) => now + wholeSeconds(refs.find((r) => storeKey(r) === k)!.windowSeconds) * 1000,
        );
        const rows = (await options.db.dataSource.query(
          `INSERT INTO ${RATE_LIMITS_TABLE} (key, points, expire)
             SELECT k, 1, e FROM unnest($1::varchar[], $2::bigint[]) AS t(k, e)
           ON CONFLICT (key) DO UPDATE SET
             points = CASE WHEN ${RATE_LIMITS_TABLE}.expire <= $3 THEN 1 ELSE ${RATE_LIMITS_TABLE}.points + 1 END,
             expire = CASE WHEN ${RATE_LIMITS_TABLE}.expire <= $3 THEN EXCLUDED.expire ELSE ${RATE_LIMITS_TABLE}.expire END
           RETURNING key, points, expire`,
          [sorted, expires, now],
        )) as Array<{ key: string; points: number; expire: string | null }>;
        return refs.map((ref) => {
          const row = rows.find((r) => r.key === storeKey(ref))!;
          return { count: row.points, msBeforeReset: row.expire === null ? 0 : Math.max(0, Number(row.expire) - now) };
        });
      } catch (error) {
        throw storeUnavailable(options.logger, error);
      }
    },
    async giveBack(refs) {
      if (refs.length === 0) return;
      try {
        if (options.redisUrl) {
          await (await redisClient(options.redisUrl)).eval(GIVE_BACK_LUA, refs.length, ...refs.map(storeKey));
          return;
        }
        await options.db.dataSource.query(
          `UPDATE ${RATE_LIMITS_TABLE} SET points = points - 1 WHERE key = ANY($1::varchar[]) AND points > 0 AND (expire > $2 OR expire IS NULL)`,
          [[...new Set(refs.map(storeKey))].sort(), Date.now()],
        );
      } catch (error) {
        throw storeUnavailable(options.logger, error);
      }
    },
    async forget(refs) {
      if (refs.length === 0) return;
      try {
        if (options.redisUrl) {
          await (await redisClient(options.redisUrl)).del(...refs.map(storeKey));
          return;
        }
        await options.db.dataSource.query(`DELETE FROM ${RATE_LIMITS_TABLE} WHERE key = ANY($1::varchar[])`, [
          [...new Set(refs.map(storeKey))].sort(),
        ]);
      } catch (error) {
        throw storeUnavailable(options.logger, error);
      }
    },
    async ping(timeoutMs) {
      if (!options.redisUrl) return true;
      const answered = redisClient(options.redisUrl)
        .then((client) => client.ping())
        .then(
          () => true,
          () => false,
        );
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      const answers = await Promise.race([answered, late]);
      clearTimeout(timer);
      return answers;
    },
    async close() {
      const client = await redis?.catch(() => undefined);
      await client?.quit().catch(() => client.disconnect());
    },
  };
}

/** The key rate-limiter-flexible stores a counter's count under (its getKey: `keyPrefix:key`). */
function storeKey(ref: CountRef): string {
  return `${ref.counter}:${ref.key}`;
}

/** Whole seconds, at least 1, as the library's Redis store keeps windows. */
function wholeSeconds(seconds: number): number {
  return Math.max(1, Math.floor(seconds));
}

// The library's own increment (RateLimiterRedis incrTtlLuaScript) for every key in one call.
const TAKE_LUA = `local out = {}
for i, key in ipairs(KEYS) do
  redis.call('set', key, 0, 'EX', ARGV[i], 'NX')
  local count = redis.call('incrby', key, 1)
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, ARGV[i])
    ttl = 1000 * ARGV[i]
  end
  out[2 * i - 1] = count
  out[2 * i] = ttl
end
return out`;

// Only a live count above zero goes down: a count whose window ended stays gone.
const GIVE_BACK_LUA = `for _, key in ipairs(KEYS) do
  local count = tonumber(redis.call('get', key) or '0')
  if count > 0 then redis.call('decrby', key, 1) end
end
return 0`;

async function connectRedis(url: string): Promise<Redis> {
  // No offline queue: a command while Redis is away fails at once (fail closed) instead of
  // waiting in memory; the client reconnects by itself.
  // A command unanswered for 2 s fails too (a Redis that drops packets instead of refusing
  // them would otherwise hold every sign-in that counts).
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 2000,
    lazyConnect: true,
  });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    // A client whose first connect failed would go on reconnecting on its own, forever and
    // unseen, while the next count (or readiness check) opens another: stop it.
    client.disconnect();
    throw error;
  }
  return client;
}

/** No count means no decision: fail closed. */
function storeUnavailable(logger: Logger, error: unknown): DomainError {
  logger.warn({ err: error }, "rate limit store unavailable");
  return new DomainError("SERVICE_UNAVAILABLE", "the service is temporarily unavailable; retry later", [], 1);
}

function wrap(make: () => Promise<RateLimiterAbstract>, logger: Logger): Counter {
  let made: RateLimiterAbstract | undefined;
  const guard = async <T>(work: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> => {
    try {
      made ??= await make();
      return await work(made);
    } catch (error) {
      // The library rejects with its result when a consume goes over; here nothing consumes,
      // so anything thrown is the store failing.
      throw storeUnavailable(logger, error);
    }
  };
  const countOf = (res: RateLimiterRes | null): Count =>
    res ? { count: res.consumedPoints, msBeforeReset: Math.max(0, res.msBeforeNext) } : { count: 0, msBeforeReset: 0 };
  return {
    hit: (key, points = 1) => guard(async (limiter) => countOf(await limiter.penalty(key, points))),
    peek: (key) => guard(async (limiter) => countOf(await limiter.get(key))),
    set: (key, points, seconds) => guard(async (limiter) => void (await limiter.set(key, points, seconds))),
    reset: (key) => guard(async (limiter) => void (await limiter.delete(key))),
    // Whole seconds: the Redis store floors the window, and a window of 0 would never expire.
    hitFor: (key, seconds) =>
      guard(async (limiter) =>
        countOf(await limiter.penalty(key, 1, { customDuration: Math.max(1, Math.ceil(seconds)) })),
      ),
  };
}
