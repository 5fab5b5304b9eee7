import { DomainError } from "../domain/errors.js";
import type { Logger } from "../log.js";
import type { Database } from "../store/database.js";
import type { AtomicCounts } from "./counts.js";
import { postgresCounts } from "./counts-postgres.js";
import { redisCounts } from "./counts-redis.js";
import type { InFlightTries } from "./in-flight.js";
import { postgresInFlight } from "./in-flight-postgres.js";
import { redisInFlight } from "./in-flight-redis.js";
import { libraryCounters, type Counter } from "./library-counter.js";
import { lazyRedis } from "./redis-client.js";

export type { Count, CountRef } from "./counts.js";
export type { Counter } from "./library-counter.js";

/**
 * Where the counts live: the service's own database, or Redis when REDIS_URL is set. The
 * counts a try or a send changes together are ours (counts.ts), and so are the tries in flight
 * (in-flight.ts); the counts of one key at a time are rate-limiter-flexible's
 * (library-counter.ts). A store that does not answer is SERVICE_UNAVAILABLE: no count, no
 * decision.
 */
export interface LimiterStore extends Omit<AtomicCounts, "stop">, Omit<InFlightTries, "stop"> {
  kind: "postgres" | "redis";
  /** One counter per name and window; asking again answers the same one. */
  counter(name: string, windowSeconds: number): Counter;
  /**
   * Whether the store answers within `timeoutMs` (the readiness check): a Redis PING. The
   * PostgreSQL store answers true at once, since the readiness check asks the database itself.
   */
  ping(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export function openLimiterStore(options: { db: Database; redisUrl?: string; logger: Logger }): LimiterStore {
  const redis = options.redisUrl ? lazyRedis(options.redisUrl) : undefined;
  const counts = redis ? redisCounts(redis.client) : postgresCounts(options.db, options.logger);
  const inFlight = redis ? redisInFlight(redis.client) : postgresInFlight(options.db, options.logger);
  const counterOf = libraryCounters({ db: options.db, redis: redis?.client });
  const counters = new Map<string, Counter>();
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      // Nothing here consumes past a limit (counts are compared by the caller), so anything
      // thrown is the store failing.
      throw storeUnavailable(options.logger, error);
    }
  };
  return {
    kind: redis ? "redis" : "postgres",
    counter(name, windowSeconds) {
      const id = `${name}/${windowSeconds}`;
      let counter = counters.get(id);
      if (!counter) {
        const counted = counterOf(name, windowSeconds);
        counter = {
          hit: (key, points) => guard(() => counted.hit(key, points)),
          hitFor: (key, seconds) => guard(() => counted.hitFor(key, seconds)),
        };
        counters.set(id, counter);
      }
      return counter;
    },
    take: (refs) => guard(() => counts.take(refs)),
    giveBack: (refs) => guard(() => counts.giveBack(refs)),
    forget: (refs) => guard(() => counts.forget(refs)),
    put: (ref, points) => guard(() => counts.put(ref, points)),
    enter: (id, subjects, leaseSeconds, also) => guard(() => inFlight.enter(id, subjects, leaseSeconds, also)),
    look: (subjects, also) => guard(() => inFlight.look(subjects, also)),
    leave: (id, subjects, forget) => guard(() => inFlight.leave(id, subjects, forget)),
    fail: (id, subjects, wait) => guard(() => inFlight.fail(id, subjects, wait)),
    async ping(timeoutMs) {
      if (!redis) return true;
      const answered = redis
        .client()
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
      counts.stop();
      inFlight.stop();
      await redis?.close();
    },
  };
}

/** No count means no decision: fail closed. */
function storeUnavailable(logger: Logger, error: unknown): DomainError {
  logger.warn({ err: error }, "rate limit store unavailable");
  return new DomainError("SERVICE_UNAVAILABLE", "the service is temporarily unavailable; retry later", [], 1);
}
