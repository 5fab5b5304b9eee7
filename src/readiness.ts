import type { FlowDeps } from "./flows/deps.js";
import type { AppDeps } from "./app-deps.js";
import { redisHost } from "./limits/redis-client.js";
import { databaseAnswers } from "./store/probe.js";
import {
  deliveredChannels,
  deliveryBacklog,
  undeliverableChannels,
  type DeliveryBacklog,
  type UndeliverableBacklog,
} from "./notify/backlog.js";

/** A dependency every request needs, as /healthz names it when it does not answer. */
export type Dependency = "database" | "redis";

/**
 * The dependencies that do not answer now; none means ready. Both are asked at once, each
 * with its own bound: the database (every request reads it), and Redis when REDIS_URL puts
 * the rate-limit counts there, since without a count every sign-in, send and signup answers
 * 503 (the limits fail closed). On the database store the database check covers the counts.
 */
export async function dependenciesDown(deps: AppDeps): Promise<Dependency[]> {
  const [database, redis] = await Promise.all([databaseUp(deps), deps.limiterStore.ping(REDIS_PING_TIMEOUT_MS)]);
  return [...(database ? [] : (["database"] as const)), ...(redis ? [] : (["redis"] as const))];
}

/** A PING answers in about a millisecond on a healthy network; a second is an outage. */
const REDIS_PING_TIMEOUT_MS = 1000;

/**
 * At start: a REDIS_URL that does not answer is said at once, in a warning naming its host
 * (never the URL, which may hold a password), instead of surfacing only as 503s and failed
 * probes. Nothing waits for it: readiness fails until Redis answers (dependenciesDown), and
 * the limits answer 503 meanwhile.
 */
export async function warnIfRedisDown(deps: AppDeps): Promise<void> {
  if (!deps.config.redisUrl || (await deps.limiterStore.ping(REDIS_PING_TIMEOUT_MS))) return;
  deps.logger.warn(
    { redis: redisHost(deps.config.redisUrl) },
    "Redis (REDIS_URL) does not answer: readiness fails, and sign-ins, sends and signups answer 503, until it does",
  );
}

/**
 * The outbox of the channels this instance sends, for /healthz to report; undefined when it
 * sends none (the outbox is then the operator's to read) or the count does not come within the
 * database check's bound. It never makes the server unready: a stalled SMTP relay or SMS
 * gateway is shared by every instance, and taking them out of rotation would only add an
 * outage of everything else (docs/operations.md#health).
 */
export async function deliveryReport(deps: FlowDeps): Promise<DeliveryBacklog | undefined> {
  const channels = deliveredChannels(deps.config);
  if (channels.length === 0) return undefined;
  const report = deliveryBacklog(deps.db, deps.clock, channels, deps.config.deliveryBacklogMaxAgeS).catch(
    () => undefined,
  );
  return bounded(deps, report, undefined);
}

/**
 * The SMS this instance queued but has no transport for (notify/backlog.ts), for /healthz to
 * report; undefined when none waits, when SMS_WEBHOOK_URL is set, or when the count does not
 * come in time. Reported only, like the delivery backlog: it never makes the server unready.
 */
export async function undeliverableReport(deps: FlowDeps): Promise<UndeliverableBacklog | undefined> {
  const channels = undeliverableChannels(deps.config);
  if (channels.length === 0) return undefined;
  const report = deliveryBacklog(deps.db, deps.clock, channels, deps.config.deliveryBacklogMaxAgeS).catch(
    () => undefined,
  );
  const sms = await bounded(deps, report, undefined);
  if (!sms || sms.pending === 0) return undefined;
  return { sms: { pending: sms.pending, oldest_age_s: sms.oldest_age_s } };
}

/**
 * On PostgreSQL the answer is bounded: a partition must make the check fail, not hang it (the
 * query's own timeouts end it later). PGlite's one connection may be held by a transaction a
 * while; there the check waits its turn.
 */
function databaseUp(deps: FlowDeps): Promise<boolean> {
  const answered = databaseAnswers(deps.db).then(
    () => true,
    () => false,
  );
  return bounded(deps, answered, false);
}

/** `answer`, or `late` once a query on PostgreSQL has had DATABASE_TIMEOUT_MS and a margin. */
async function bounded<T>(deps: FlowDeps, answer: Promise<T>, late: T): Promise<T> {
  if (deps.db.kind !== "postgres") return answer;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>(
    (resolve) => (timer = setTimeout(() => resolve(late), deps.config.databaseTimeoutMs + HEALTH_MARGIN_MS)),
  );
  const result = await Promise.race([answer, deadline]);
  clearTimeout(timer);
  return result;
}

/** Past DATABASE_TIMEOUT_MS, what a pool under load may still need to hand out a connection. */
const HEALTH_MARGIN_MS = 500;
