import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { BEHIND_PROXY, freshIp, from, limitsApp } from "./helpers.js";

// Threat: a flood of logins from many addresses (each under its per-IP limit) making everyone's
// login wait longer and longer. The argon2 gate's queue is FIFO and bounded in length and in
// wait: past either bound a login is answered 503 at once, so latency stays bounded.
// argon2 is made slow here (64 MiB, t=4, one at a time) so that a burst really queues.
const SLOW_ARGON2 = { ARGON2_MEMORY_KIB: "65536", ARGON2_TIME_COST: "4", ARGON2_MAX_IN_FLIGHT: "1" };

async function burst(server: TestServer, count: number) {
  const app = await limitsApp(server);
  const { email, password } = await app.signup();
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      app.call(
        "POST",
        "/v1/auth/login",
        { email: `flood${i}@example.com`, password: "not it" },
        undefined,
        from(freshIp()),
      ),
    ),
  );
  return { app, email, password, answers };
}

describe("the argon2 queue", () => {
  describe("bounded in length", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        ...BEHIND_PROXY,
        ...SLOW_ARGON2,
        ARGON2_QUEUE_MAX: "2",
        ARGON2_QUEUE_WAIT_MS: "30000",
      });
    });
    afterAll(() => server?.stop());

    it("a burst beyond one running and two waiting is answered 503 SERVICE_UNAVAILABLE with Retry-After at once; then logins work", async () => {
      const { app, email, password, answers } = await burst(server, 12);
      const refused = answers.filter((a) => a.status === 503);
      expect(answers.filter((a) => a.status !== 503).every((a) => a.status === 401)).toBe(true);
      expect(refused.length).toBeGreaterThanOrEqual(12 - 3 - 2); // a slot may free up while the burst arrives
      for (const res of refused) {
        expect(res.body.reason).toBe("SERVICE_UNAVAILABLE");
        expect(res.headers.get("retry-after")).toBe("1");
        expect(res.body.retry_after_seconds).toBe(1);
      }
      expect((await app.call("POST", "/v1/auth/login", { email, password }, undefined, from(freshIp()))).status).toBe(
        200,
      );
    });
  });

  describe("bounded in wait", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        ...BEHIND_PROXY,
        ...SLOW_ARGON2,
        ARGON2_QUEUE_MAX: "1000",
        ARGON2_QUEUE_WAIT_MS: "10",
      });
    });
    afterAll(() => server?.stop());

    it("a login that cannot start within ARGON2_QUEUE_WAIT_MS is answered 503 instead of waiting on", async () => {
      const { answers } = await burst(server, 6);
      expect(answers.some((a) => a.status === 401)).toBe(true);
      expect(answers.filter((a) => a.status === 503).length).toBeGreaterThanOrEqual(3);
    });
  });
});
