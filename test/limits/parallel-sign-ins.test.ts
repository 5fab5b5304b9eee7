import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { BEHIND_PROXY, freshIp, from, limitsApp, retryAfterOf, useLimitsServer, type LimitsApp } from "./helpers.js";

// Threat (issue 46): the limiter counted every try, right or wrong, before the password was
// checked, on one row per account and one per address. A right password is no failure, yet
// parallel sign-ins of one account were refused (7 of 40 got 429; 54 beside Better Auth), and
// on PostgreSQL the counter rows every sign-in updated timed out into 503. Now only failures
// are counted; a try holds a place among the account's remaining guesses while it is checked
// (a row of its own), so an attacker still gets exactly the limit checked, however parallel,
// and right passwords wait their turn instead of being refused.

const REDIS_URL = "redis://127.0.0.1:6379";

type Login = (password: string, headers?: Record<string, string>) => Promise<number>;

function loginOf(app: LimitsApp, email: string, server = app.server): Login {
  return async (password, headers = from(freshIp())) => {
    const res = await fetch(`${server.url}/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-key": app.key, ...headers },
      body: JSON.stringify({ email, password }),
    });
    await res.arrayBuffer();
    return res.status;
  };
}

const tally = (statuses: number[]) => {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
};

/** The cases every store must hold; `servers` share one store (one instance, or two on one database). */
function parallelCases(servers: () => TestServer[]) {
  const spread = (app: LimitsApp, email: string) => {
    const logins = servers().map((server) => loginOf(app, email, server));
    return (i: number) => logins[i % logins.length];
  };

  it("40 right passwords at once for one account from one address: all 200; they leave no failure behind", async () => {
    const app = await limitsApp(servers()[0]);
    const { email, password } = await app.signup();
    const on = spread(app, email);
    const client = from(freshIp());
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => on(i)(password, client)));
    expect(tally(statuses)).toEqual({ 200: 40 });
    // Nothing was counted: the account still has its 10 guesses, then waits.
    const login = loginOf(app, email);
    for (let i = 0; i < 10; i++) expect(await login(`wrong ${i}`)).toBe(401);
    retryAfterOf(await app.call("POST", "/v1/auth/login", { email, password }, undefined, from(freshIp())));
  });

  it("20 right passwords at once against a limit of 3: all 200, three checked at a time", async () => {
    const app = await limitsApp(servers()[0]);
    await app.setLimits({ sign_in_failures_per_account: 3 });
    const { email, password } = await app.signup();
    const on = spread(app, email);
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => on(i)(password)));
    expect(tally(statuses)).toEqual({ 200: 20 });
  });

  it("40 wrong passwords at once: exactly the limit (10) checked, 30 refused", async () => {
    const app = await limitsApp(servers()[0]);
    const { email } = await app.signup();
    const on = spread(app, email);
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => on(i)(`wrong guess ${i}`)));
    expect(tally(statuses)).toEqual({ 401: 10, 429: 30 });
  });

  it("9 wrong and 31 right passwords at once: every wrong one is checked, every right one signs in", async () => {
    const app = await limitsApp(servers()[0]);
    const { email, password } = await app.signup();
    const on = spread(app, email);
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 4 === 1 && i < 36 ? on(i)(`wrong guess ${i}`) : on(i)(password))),
    );
    expect(tally(statuses)).toEqual({ 200: 31, 401: 9 });
  });
}

describe("parallel sign-ins of one account", () => {
  describe("the database store", () => {
    const box = useLimitsServer();
    parallelCases(() => [box.server]);
  });

  describe("the Redis store (REDIS_URL)", () => {
    const box = useLimitsServer({ REDIS_URL });
    parallelCases(() => [box.server]);
  });

  // Two instances need one database for their projects and keys: PostgreSQL.
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
    parallelCases(() => servers);

    /** Right passwords for `email` at once while a transaction holds the count rows `like` locked. */
    async function whileLocked(app: LimitsApp, like: string, signIns: () => Promise<number[]>) {
      const runner = servers[0].deps.db.dataSource.createQueryRunner();
      await runner.startTransaction();
      try {
        const locked: unknown[] = await runner.query(`SELECT key FROM limit_counts WHERE key LIKE $1 FOR UPDATE`, [
          `${like}:${app.projectId}:%`,
        ]);
        expect(locked).toHaveLength(1);
        return await signIns();
      } finally {
        await runner.rollbackTransaction();
        await runner.release();
      }
    }

    it("a sign-in never waits on a count other sign-ins share: right passwords answer 200 while the address's failure row is locked", async () => {
      const app = await limitsApp(servers[0]);
      const { email, password } = await app.signup();
      const client = from(freshIp());
      // One failure from the address makes its count's row.
      expect(await loginOf(app, `nobody-${Date.now()}@example.com`)("wrong", client)).toBe(401);
      const statuses = await whileLocked(app, "fail_ip", () =>
        Promise.all(Array.from({ length: 8 }, () => loginOf(app, email)(password, client))),
      );
      expect(tally(statuses)).toEqual({ 200: 8 });
    });

    it("nor on the account's own failure row: while it is locked (a failure being counted), right passwords answer 200", async () => {
      const app = await limitsApp(servers[0]);
      const { email, password } = await app.signup();
      const login = loginOf(app, email);
      expect(await login("wrong")).toBe(401);
      const statuses = await whileLocked(app, "fail_account", () =>
        Promise.all(Array.from({ length: 8 }, () => login(password))),
      );
      expect(tally(statuses)).toEqual({ 200: 8 });
      // Unlocked, a right password forgets the failure: 3 more wrong ones of a limit of 3 are checked.
      await app.setLimits({ sign_in_failures_per_account: 3 });
      expect(await login(password)).toBe(200);
      for (let i = 0; i < 3; i++) expect(await login(`wrong ${i}`)).toBe(401);
      expect(await login(password)).toBe(429);
    });
  });
});
