import type { Redis } from "ioredis";
import {
  RateLimiterPostgres,
  RateLimiterRedis,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from "rate-limiter-flexible";
import type { Database } from "../store/database.js";
import type { Count } from "./counts.js";

/** The table of src/store/migrations/1733300000000-rate-limits.ts, in rate-limiter-flexible's layout. */
export const RATE_LIMITS_TABLE = "rate_limits";

/** A count of one key that expires a window after its first hit, shared by every instance on the store. */
export interface Counter {
  /** Adds `points` and answers the count now and the milliseconds until the window ends. */
  hit(key: string, points?: number): Promise<Count>;
  /** hit() whose window, when this hit starts one, is `seconds` (whole, at least 1) instead of the counter's. */
  hitFor(key: string, seconds: number): Promise<Count>;
}

/**
 * The counts one key at a time (a send asked for, a refresh, a signup, a refusal, a spent bot
 * proof): rate-limiter-flexible, through its public API only, over its table `rate_limits`
 * (through TypeORM's pool) or over Redis. Its table and keys are its own: nothing else reads them.
 * The library reads the system clock, not the service's injected one: windows run in real time.
 */
export function libraryCounters(options: {
  db: Database;
  redis?: () => Promise<Redis>;
}): (name: string, windowSeconds: number) => Counter {
  // Expired rows are deleted by one limiter only: each would otherwise start its own timer.
  let sweeping = false;
  const make = async (name: string, windowSeconds: number): Promise<RateLimiterAbstract> => {
    // Points are not the limit here (each project sets its own); counts are compared by the caller.
    const common = { keyPrefix: name, points: 2_000_000_000, duration: windowSeconds };
    if (options.redis)
      return new RateLimiterRedis({ ...common, storeClient: await options.redis(), rejectIfRedisNotReady: true });
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
  return (name, windowSeconds) => {
    let made: Promise<RateLimiterAbstract> | undefined;
    const limiter = () =>
      (made ??= make(name, windowSeconds).catch((error: unknown) => {
        // Not remembered: the next count tries again (Redis may be back).
        made = undefined;
        throw error;
      }));
    const countOf = (res: RateLimiterRes): Count => ({
      count: res.consumedPoints,
      msBeforeReset: Math.max(0, res.msBeforeNext),
    });
    return {
      hit: async (key, points = 1) => countOf(await (await limiter()).penalty(key, points)),
      // Whole seconds: the Redis store floors the window, and a window of 0 would never expire.
      hitFor: async (key, seconds) =>
        countOf(await (await limiter()).penalty(key, 1, { customDuration: Math.max(1, Math.ceil(seconds)) })),
    };
  };
}
