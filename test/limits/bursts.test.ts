import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { BEHIND_PROXY, freshIp, from, limitsApp, useLimitsServer, type LimitsApp } from "./helpers.js";

// Threat: a parallel burst slips past a limit that is read, then checked, then written: 50
// parallel wrong passwords got 22 checked against a limit of 10 (40 of 100 across two
// instances). A try is now taken from the count in the store before the password is checked
// (atomically, one statement or one Lua call), and given back when it is refused or right, so
// a burst gets exactly the limit, on any number of instances sharing the store.

const REDIS_URL = "redis://127.0.0.1:6379";
// PGlite answers one statement at a time: 100 requests of a few statements each queue behind one another.
const BURST_TIMEOUT_MS = 90_000;

/** `count` wrong passwords for one account at once, each from its own address, spread over `servers`; the statuses. */
async function burst(app: LimitsApp, email: string, servers: TestServer[], count: number): Promise<number[]> {
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      fetch(`${servers[i % servers.length].url}/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-service-key": app.key, ...from(freshIp()) },
        body: JSON.stringify({ email, password: `wrong guess ${i}` }),
      }),
    ),
  );
  return answers.map((a) => a.status);
}

const tally = (statuses: number[]) => ({
  checked: statuses.filter((s) => s === 401).length,
  refused: statuses.filter((s) => s === 429).length,
});

async function burstAgainstLimit(servers: TestServer[]) {
  const app = await limitsApp(servers[0]);
  await app.setLimits({ sign_in_failures_per_account: 10 });
  const { email, password } = await app.signup();
  expect(tally(await burst(app, email, servers, 100))).toEqual({ checked: 10, refused: 90 });
  // The refused tries were given back and the account waits; the right password waits too.
  const right = await app.call("POST", "/v1/auth/login", { email, password }, undefined, from(freshIp()));
  expect(right.status).toBe(429);
}

describe("a burst of 100 wrong passwords against a limit of 10", () => {
  describe("the database store", () => {
    const box = useLimitsServer();
    it("exactly 10 are checked, 90 refused", () => burstAgainstLimit([box.server]), BURST_TIMEOUT_MS);

    it("the same from one address: failures_per_ip holds exactly too", async () => {
      const app = await limitsApp(box.server);
      await app.setLimits({ failures_per_ip: 10, sign_in_failures_per_account: 100 });
      const client = freshIp();
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          app.call(
            "POST",
            "/v1/auth/login",
            { email: `nobody-${i}@example.com`, password: "wrong guess" },
            undefined,
            from(client),
          ),
        ),
      );
      expect(tally(answers.map((a) => a.status))).toEqual({ checked: 10, refused: 30 });
    });
  });

  describe("the Redis store (REDIS_URL)", () => {
    const box = useLimitsServer({ REDIS_URL });
    it("exactly 10 are checked, 90 refused", () => burstAgainstLimit([box.server]), BURST_TIMEOUT_MS);
  });

  // Two instances need one database for their projects and keys: PostgreSQL (CI runs both).
  describe.skipIf(!process.env.DATABASE_URL)("two instances on one PostgreSQL database", () => {
    let database: TestDatabase;
    let servers: TestServer[] = [];
    let onRedis: TestServer[] = [];
    beforeAll(async () => {
      database = await createTestDatabase();
      servers = [await startTestServer(BEHIND_PROXY, database), await startTestServer(BEHIND_PROXY, database)];
      onRedis = [
        await startTestServer({ ...BEHIND_PROXY, REDIS_URL }, database),
        await startTestServer({ ...BEHIND_PROXY, REDIS_URL }, database),
      ];
    });
    afterAll(async () => {
      for (const server of [...servers, ...onRedis]) await server.stop();
      await database?.drop();
    });
    it(
      "counting in the database: exactly 10 are checked, 90 refused, half of the burst on each",
      () => burstAgainstLimit(servers),
      BURST_TIMEOUT_MS,
    );
    it(
      "counting in Redis: exactly 10 are checked, 90 refused, half of the burst on each",
      () => burstAgainstLimit(onRedis),
      BURST_TIMEOUT_MS,
    );
  });
});
