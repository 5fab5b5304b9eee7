import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COUNT_KEY_PREFIX } from "../../src/limits/counts-redis.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { BEHIND_PROXY, freshIp, from, limitsApp, retryAfterOf, useLimitsServer } from "./helpers.js";

const REDIS_URL = "redis://127.0.0.1:6379";

async function guessUntilLimited(app: Awaited<ReturnType<typeof limitsApp>>, email: string, servers: TestServer[]) {
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) {
    const server = servers[i % servers.length];
    const res = await fetch(`${server.url}/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-key": app.key, ...from(freshIp()) },
      body: JSON.stringify({ email, password: `wrong ${i}` }),
    });
    statuses.push(res.status);
  }
  return statuses;
}

// Where the counts live decides whether limits hold across instances: in the service's own
// database by default (PGlite included), in Redis with REDIS_URL.
describe("the database store", () => {
  const box = useLimitsServer();

  it("counts in the limit_counts table under HMAC'd keys: no email or address in it", async () => {
    const app = await limitsApp(box.server);
    await app.setLimits({ sign_in_failures_per_account: 3 });
    const { email } = await app.signup();
    expect(await guessUntilLimited(app, email, [box.server])).toEqual([401, 401, 401, 429]);
    const rows: Array<{ key: string; points: number }> = await box.server.deps.db.dataSource.query(
      `SELECT key, points FROM limit_counts WHERE key LIKE 'fail_account:%'`,
    );
    expect(rows.some((r) => r.key.startsWith(`fail_account:${app.projectId}:`) && r.points === 3)).toBe(true);
    const all: Array<{ key: string }> = await box.server.deps.db.dataSource.query(
      `SELECT key FROM limit_counts UNION ALL SELECT key FROM rate_limits`,
    );
    expect(all.filter((r) => r.key.includes("@") || r.key.includes("203.0."))).toEqual([]);
    expect(box.server.deps.limits.store).toBe("postgres");
  });
});

describe.skipIf(!process.env.DATABASE_URL)("two instances on one PostgreSQL database", () => {
  let database: TestDatabase;
  let servers: TestServer[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    servers = [await startTestServer(BEHIND_PROXY, database), await startTestServer(BEHIND_PROXY, database)];
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await database?.drop();
  });

  it("failures counted on one instance stop the next try on the other", async () => {
    const app = await limitsApp(servers[0]);
    await app.setLimits({ sign_in_failures_per_account: 3 });
    const { email } = await app.signup();
    // Alternating A, B, A, B: the fourth try, on B, sees the three failures of both.
    expect(await guessUntilLimited(app, email, servers)).toEqual([401, 401, 401, 429]);
  });
});

describe("the Redis store (REDIS_URL)", () => {
  const box = useLimitsServer({ REDIS_URL });
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  afterAll(() => redis.quit());

  it("counts in Redis, not in the database, and limits the same way", async () => {
    const app = await limitsApp(box.server);
    await app.setLimits({ sign_in_failures_per_account: 3, sends_per_ip: 1 });
    const { email, password } = await app.signup();
    expect(box.server.deps.limits.store).toBe("redis");
    expect(await guessUntilLimited(app, email, [box.server])).toEqual([401, 401, 401, 429]);
    retryAfterOf(await app.call("POST", "/v1/auth/login", { email, password }, undefined, from(freshIp())));
    const keys = await redis.keys(`${COUNT_KEY_PREFIX}fail_account:${app.projectId}:*`);
    expect(keys).toHaveLength(1);
    expect(Number(await redis.get(keys[0]))).toBe(3);
    expect(
      await box.server.deps.db.dataSource.query(`SELECT key FROM limit_counts UNION ALL SELECT key FROM rate_limits`),
    ).toEqual([]);
    const client = freshIp();
    expect(
      (await app.call("POST", "/v1/auth/otp/send", { email: `r1-${Date.now()}@example.com` }, undefined, from(client)))
        .status,
    ).toBe(200);
    retryAfterOf(
      await app.call("POST", "/v1/auth/otp/send", { email: `r2-${Date.now()}@example.com` }, undefined, from(client)),
    );
  });

  it("a Redis that does not answer fails closed: 503 SERVICE_UNAVAILABLE, never an unlimited sign-in", async () => {
    const server = await startTestServer({ ...BEHIND_PROXY, REDIS_URL: "redis://127.0.0.1:1" });
    try {
      const app = await limitsApp(server);
      const res = await app.call(
        "POST",
        "/v1/auth/login",
        { email: "a@example.com", password: "whatever it is" },
        undefined,
        from(freshIp()),
      );
      expect(res.status).toBe(503);
      expect(res.body.reason).toBe("SERVICE_UNAVAILABLE");
      expect(res.headers.get("retry-after")).toBe("1");
    } finally {
      await server.stop();
    }
  });
});
