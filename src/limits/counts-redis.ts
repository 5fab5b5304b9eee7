import type { Redis } from "ioredis";
import { countKey, wholeSeconds, type AtomicCounts, type CountRef } from "./counts.js";

/** Our keys' prefix: rate-limiter-flexible's keys (`<counter>:<key>`) never start with it. */
export const COUNT_KEY_PREFIX = "gatehouse:count:";

// Each count: started at 0 with its window if absent, then incremented; answers count and
// milliseconds left, for every key in one atomic call.
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

/** Our counts in Redis (REDIS_URL); Redis expires them itself. */
export function redisCounts(client: () => Promise<Redis>): AtomicCounts {
  const keyOf = (ref: CountRef) => COUNT_KEY_PREFIX + countKey(ref);
  return {
    async take(refs) {
      if (refs.length === 0) return [];
      const answers = (await (
        await client()
      ).eval(
        TAKE_LUA,
        refs.length,
        ...refs.map(keyOf),
        ...refs.map((r) => String(wholeSeconds(r.windowSeconds))),
      )) as number[];
      return refs.map((_, i) => ({
        count: Number(answers[2 * i]),
        msBeforeReset: Math.max(0, Number(answers[2 * i + 1])),
      }));
    },
    async giveBack(refs) {
      if (refs.length === 0) return;
      await (await client()).eval(GIVE_BACK_LUA, refs.length, ...refs.map(keyOf));
    },
    async forget(refs) {
      if (refs.length === 0) return;
      await (await client()).del(...refs.map(keyOf));
    },
    async put(ref, points) {
      await (await client()).set(keyOf(ref), points, "EX", wholeSeconds(ref.windowSeconds));
    },
    stop() {},
  };
}
