import { describe, expect, it } from "vitest";
import type { TestServer } from "../helpers/server.js";
import { auditApp, client, useAuditServer } from "./helpers.js";

// Threat: a flood of refused requests turns into a flood of audit rows: the log a defender
// reads drowns, and the database pays one insert per refusal to an attacker who is already
// refused. `rate_limit.exceeded` is written once per limited key and wait (its Retry-After),
// counted in the limiter store, and its details say so; the next wait is recorded again.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const THROTTLE = "first refusal per limited key and wait";

/** 20 refused sign-ins of one account, 5 of another, then a new wait; against the server in `box`. */
async function floodOfSignIns(box: { server: TestServer }): Promise<void> {
  // One failure starts a 5 s wait, and every later wait is 5 s too: long enough for the 25
  // refused sign-ins below on a busy machine, each of which takes a try and gives it back.
  const app = await auditApp(box.server, {
    rateLimits: { signInFailuresPerAccount: 1, signInWaitSeconds: 5, signInMaxWaitSeconds: 5 },
  });
  const alice = await app.signup();
  const bob = await app.signup();
  const c = client();
  const login = (email: string, password: string) =>
    app.call("POST", "/v1/auth/login", { email, password }, undefined, c.headers);

  expect((await login(alice.email, "wrong wrong wrong")).status).toBe(401);
  const first = await login(alice.email, alice.password);
  expect(first.status).toBe(429);
  const firstAt = Date.now();
  const retryAfter = Number(first.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  for (let i = 1; i < 20; i++)
    expect((await login(alice.email, i % 2 ? "wrong wrong wrong" : alice.password)).status).toBe(429);
  expect((await login(bob.email, "wrong wrong wrong")).status).toBe(401);
  for (let i = 0; i < 5; i++) expect((await login(bob.email, "wrong wrong wrong")).status).toBe(429);

  const limited = await app.events({ type: "rate_limit.exceeded" });
  expect(limited).toHaveLength(2);
  const [ofBob, ofAlice] = limited;
  expect(ofAlice).toMatchObject({
    reason: "RATE_LIMITED",
    user_id: "",
    actor_type: "anonymous",
    ip_address: c.ip,
    details: { method: "password", throttle: THROTTLE, retry_after_seconds: retryAfter },
  });
  expect(ofAlice.email_hash).not.toBe(ofBob.email_hash);

  // The wait is over (and with it the throttle, which lasts the first refusal's Retry-After):
  // a wrong password starts a new wait, whose first refusal is recorded, and only that one.
  await sleep(Math.max(0, firstAt + retryAfter * 1000 + 200 - Date.now()));
  expect((await login(alice.email, "wrong wrong wrong")).status).toBe(401);
  for (let i = 0; i < 5; i++) expect((await login(alice.email, alice.password)).status).toBe(429);
  const again = await app.events({ type: "rate_limit.exceeded" });
  expect(again).toHaveLength(3);
  expect(again[0]).toMatchObject({ email_hash: ofAlice.email_hash, details: { throttle: THROTTLE } });
  // The failures that started each wait are still each recorded.
  expect(await app.events({ type: "user.login.failed" })).toHaveLength(3);
}

describe("audit: rate_limit.exceeded is recorded once per limited key and wait", () => {
  const box = useAuditServer();

  it("20 refused sign-ins of one account write one event; another account's refusals one more; after the wait a refusal records again", () =>
    floodOfSignIns(box));

  it("a limit counted outside sign-in (signups per address) is recorded once per address and window too", async () => {
    const app = await auditApp(box.server, { rateLimits: { signupsPerIp: 1, windowSeconds: 60 } });
    const c = client();
    const signup = (n: number) =>
      app.call(
        "POST",
        "/v1/auth/signup",
        { email: `flood-${n}-${Date.now()}@example.com`, password: "a sturdy passphrase 1" },
        undefined,
        c.headers,
      );
    expect((await signup(0)).status).toBe(200);
    for (let i = 1; i <= 20; i++) expect((await signup(i)).status).toBe(429);
    const other = client();
    expect(
      (
        await app.call(
          "POST",
          "/v1/auth/signup",
          { email: `other-${Date.now()}@example.com`, password: "a sturdy passphrase 1" },
          undefined,
          other.headers,
        )
      ).status,
    ).toBe(200);

    const limited = await app.events({ type: "rate_limit.exceeded" });
    expect(limited).toHaveLength(1);
    expect(limited[0]).toMatchObject({ ip_address: c.ip, details: { rpc: "AuthService/Signup", throttle: THROTTLE } });
    expect(limited[0].details.retry_after_seconds).toBeGreaterThan(50);
  });
});

describe("audit: the throttle in the Redis store (REDIS_URL)", () => {
  const box = useAuditServer({ REDIS_URL: "redis://127.0.0.1:6379" });

  it("20 refused sign-ins of one account write one event; after the wait a refusal records again", () =>
    floodOfSignIns(box));
});
