import type { Redis } from "ioredis";
import { countKey, wholeSeconds, type Count, type CountRef } from "./counts.js";
import { COUNT_KEY_PREFIX } from "./counts-redis.js";
import type { InFlightTries, Looked } from "./in-flight.js";

/** A subject's tries in flight: a sorted set of try ids scored by their lease's end (Redis time). */
const TRIES_KEY_PREFIX = "gatehouse:tries:";

// KEYS: per subject its failure count and its set of tries, then the `also` counts.
// ARGV: try id (empty: look without announcing), lease ms, number of subjects. Leases follow
// Redis's clock, so instances whose clocks differ agree on them. Answers per key: count, ms
// left, and for subjects the other tries announced.
const ENTER_LUA = `local t = redis.call('time')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local leaseMs = tonumber(ARGV[2])
local subjects = tonumber(ARGV[3])
local announce = ARGV[1] ~= ''
local out = {}
for i = 1, subjects do
  local tries = KEYS[2 * i]
  redis.call('zremrangebyscore', tries, '-inf', now)
  local others = redis.call('zcard', tries)
  if announce then
    redis.call('zadd', tries, now + leaseMs, ARGV[1])
    if redis.call('pttl', tries) < leaseMs then redis.call('pexpire', tries, leaseMs) end
    others = redis.call('zcard', tries) - 1
  end
  out[#out + 1] = tonumber(redis.call('get', KEYS[2 * i - 1]) or '0')
  out[#out + 1] = redis.call('pttl', KEYS[2 * i - 1])
  out[#out + 1] = others
end
for i = 2 * subjects + 1, #KEYS do
  out[#out + 1] = tonumber(redis.call('get', KEYS[i]) or '0')
  out[#out + 1] = redis.call('pttl', KEYS[i])
end
return out`;

// KEYS: the tries' sets, then the counts to forget. ARGV: try id, number of sets.
const LEAVE_LUA = `for i = 1, tonumber(ARGV[2]) do redis.call('zrem', KEYS[i], ARGV[1]) end
for i = tonumber(ARGV[2]) + 1, #KEYS do redis.call('del', KEYS[i]) end
return 0`;

// KEYS: per subject its failure count and its set of tries, then the wait's key if any.
// ARGV: try id, number of subjects, each subject's window in seconds, then for the wait: the
// index of the account's subject, threshold, step and longest wait in seconds.
const FAIL_LUA = `local subjects = tonumber(ARGV[2])
local out = {}
for i = 1, subjects do
  local key = KEYS[2 * i - 1]
  redis.call('set', key, 0, 'EX', ARGV[2 + i], 'NX')
  local count = redis.call('incrby', key, 1)
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, ARGV[2 + i])
    ttl = 1000 * ARGV[2 + i]
  end
  redis.call('zrem', KEYS[2 * i], ARGV[1])
  out[2 * i - 1] = count
  out[2 * i] = ttl
end
if #KEYS > 2 * subjects then
  local base = 2 + subjects
  local count = out[2 * tonumber(ARGV[base + 1]) - 1]
  local threshold = tonumber(ARGV[base + 2])
  if count >= threshold then
    local seconds = math.min(tonumber(ARGV[base + 4]), tonumber(ARGV[base + 3]) * (count - threshold + 1))
    redis.call('set', KEYS[#KEYS], 1, 'EX', seconds)
  end
end
return out`;

/** Our tries in flight in Redis (REDIS_URL), beside our counts; Redis expires both itself. */
export function redisInFlight(client: () => Promise<Redis>): InFlightTries {
  const countOf = (ref: CountRef) => COUNT_KEY_PREFIX + countKey(ref);
  const triesOf = (ref: CountRef) => TRIES_KEY_PREFIX + countKey(ref);
  const answer = (count: unknown, ttl: unknown): Count => {
    const n = Number(count);
    return n > 0 ? { count: n, msBeforeReset: Math.max(0, Number(ttl)) } : { count: 0, msBeforeReset: 0 };
  };
  const enter = async (id: string, subjects: CountRef[], leaseMs: number, also: CountRef[]): Promise<Looked> => {
    const out = (await (
      await client()
    ).eval(
      ENTER_LUA,
      2 * subjects.length + also.length,
      ...subjects.flatMap((ref) => [countOf(ref), triesOf(ref)]),
      ...also.map(countOf),
      id,
      String(leaseMs),
      String(subjects.length),
    )) as number[];
    const alsoAt = 3 * subjects.length;
    return {
      standings: subjects.map((_, i) => ({
        failures: answer(out[3 * i], out[3 * i + 1]),
        others: Number(out[3 * i + 2]),
      })),
      also: also.map((_, i) => answer(out[alsoAt + 2 * i], out[alsoAt + 2 * i + 1])),
    };
  };
  return {
    enter: (id, subjects, leaseSeconds, also) => enter(id, subjects, wholeSeconds(leaseSeconds) * 1000, also),
    look: (subjects, also) => enter("", subjects, 0, also),

    async leave(id, subjects, forget) {
      await (
        await client()
      ).eval(
        LEAVE_LUA,
        subjects.length + forget.length,
        ...subjects.map(triesOf),
        ...forget.map(countOf),
        id,
        String(subjects.length),
      );
    },

    async fail(id, subjects, wait) {
      const waitArgs = wait
        ? [subjects.indexOf(wait.of) + 1, wait.threshold, wait.stepSeconds, wait.maxSeconds].map(String)
        : [];
      const out = (await (
        await client()
      ).eval(
        FAIL_LUA,
        2 * subjects.length + (wait ? 1 : 0),
        ...subjects.flatMap((ref) => [countOf(ref), triesOf(ref)]),
        ...(wait ? [countOf(wait.wait)] : []),
        id,
        String(subjects.length),
        ...subjects.map((ref) => String(wholeSeconds(ref.windowSeconds))),
        ...waitArgs,
      )) as number[];
      return subjects.map((_, i) => answer(out[2 * i], out[2 * i + 1]));
    },

    stop() {},
  };
}
