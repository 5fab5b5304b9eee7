import type { FlowDeps } from "./flows/deps.js";

/** A dependency every request needs, as /healthz names it when it does not answer. */
export type Dependency = "database" | "redis";

/**
 * The dependencies that do not answer now; none means ready. Both are asked at once, each
 * with its own bound: the database (every request reads it), and Redis when REDIS_URL puts
 * the rate-limit counts there, since without a count every sign-in, send and signup answers
 * 503 (the limits fail closed). On the database store the database check covers the counts.
 */
export async function dependenciesDown(deps: FlowDeps): Promise<Dependency[]> {
  const [database, redis] = await Promise.all([databaseAnswers(deps), deps.limiterStore.ping(REDIS_PING_TIMEOUT_MS)]);
  return [...(database ? [] : (["database"] as const)), ...(redis ? [] : (["redis"] as const))];
}

/** A PING answers in about a millisecond on a healthy network; a second is an outage. */
const REDIS_PING_TIMEOUT_MS = 1000;

/**
 * On PostgreSQL the answer is bounded: a partition must make the check fail, not hang it (the
 * query's own timeouts end it later). PGlite's one connection may be held by a transaction a
 * while; there the check waits its turn.
 */
async function databaseAnswers(deps: FlowDeps): Promise<boolean> {
  const answered = deps.db.dataSource.query("SELECT 1").then(
    () => true,
    () => false,
  );
  if (deps.db.kind !== "postgres") return answered;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), deps.config.databaseTimeoutMs + HEALTH_MARGIN_MS)));
  const healthy = await Promise.race([answered, late]);
  clearTimeout(timer);
  return healthy;
}

/** Past DATABASE_TIMEOUT_MS, what a pool under load may still need to hand out a connection. */
const HEALTH_MARGIN_MS = 500;
