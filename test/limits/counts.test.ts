import { describe, expect, it } from "vitest";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { eventually } from "../helpers/eventually.js";
import { BEHIND_PROXY, freshIp, from, limitsApp, retryAfterOf } from "./helpers.js";

// Threats: one inbox or phone flooded with mail or SMS (130 reset mails in a minute to one
// address), one address asking for mail to many, a stolen refresh token hammered, sign-up
// floods, and one code tried without end. Each limit is set low on the test's project.
describe("rate limits on sends, codes, refreshes and signups", () => {
  const ctx = useMessagingServer({ smtp: true, env: BEHIND_PROXY });

  it("password reset: over the per-address limit the answer stays the same and no more mail goes out", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ sends_per_destination: 2 });
    const { email } = await app.signup();
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push(await app.call("POST", "/v1/auth/password/reset-request", { email }, undefined, from(freshIp())));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.message)).size).toBe(1);
    await ctx.smtp.waitFor(email, { nth: 2 });
    await eventually(
      "the outbox to settle",
      async () =>
        (await ctx.sql(`SELECT count(*)::int AS n FROM outbox WHERE recipient = $1 AND sent_at IS NULL`, [email]))[0]
          .n === 0,
    );
    expect(ctx.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(2);
  });

  it("SendOtp and SendMagicLink: 429 over the per-address limit (for any address alike), shared between the two", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ sends_per_destination: 2 });
    const email = `someone-${Date.now()}@example.com`;
    expect((await app.call("POST", "/v1/auth/otp/send", { email }, undefined, from(freshIp()))).status).toBe(200);
    // Past the one-a-minute rule, which follows the service's clock.
    ctx.clock.advance(61_000);
    expect((await app.call("POST", "/v1/auth/magic-link/send", { email }, undefined, from(freshIp()))).status).toBe(
      200,
    );
    ctx.clock.advance(61_000);
    const third = await app.call(
      "POST",
      "/v1/auth/otp/send",
      { email: email.toUpperCase() },
      undefined,
      from(freshIp()),
    );
    expect(retryAfterOf(third)).toBeGreaterThan(3500);
  });

  it("sends per IP address: the fourth address asked for from one client is refused, another client is not", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ sends_per_ip: 3 });
    const client = freshIp();
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await app.call(
            "POST",
            "/v1/auth/otp/send",
            { email: `many${i}-${Date.now()}@example.com` },
            undefined,
            from(client),
          )
        ).status,
      ).toBe(200);
    }
    const refused = await app.call(
      "POST",
      "/v1/auth/password/reset-request",
      { email: `many9-${Date.now()}@example.com` },
      undefined,
      from(client),
    );
    expect(retryAfterOf(refused)).toBeGreaterThan(250);
    expect(
      (
        await app.call(
          "POST",
          "/v1/auth/otp/send",
          { email: `other-${Date.now()}@example.com` },
          undefined,
          from(freshIp()),
        )
      ).status,
    ).toBe(200);
  });

  it("after verify_attempts_per_challenge wrong codes the right one waits too (429); wrong codes count per IP", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ verify_attempts_per_challenge: 3, failures_per_ip: 4 });
    const email = `coded-${Date.now()}@example.com`;
    await app.call("POST", "/v1/auth/otp/send", { email }, undefined, from(freshIp()));
    const code = /\b(\d{6})\b/.exec((await ctx.smtp.waitFor(email)).text)![1];
    for (let i = 0; i < 3; i++)
      expect(
        (
          await app.call(
            "POST",
            "/v1/auth/otp/verify",
            { email, otp: "000000" === code ? "111111" : "000000" },
            undefined,
            from(freshIp()),
          )
        ).status,
      ).toBe(401);
    retryAfterOf(await app.call("POST", "/v1/auth/otp/verify", { email, otp: code }, undefined, from(freshIp())));

    const client = freshIp();
    for (let i = 0; i < 4; i++) {
      const res = await app.call(
        "POST",
        "/v1/auth/otp/verify",
        { email: `nobody${i}@example.com`, otp: "123456" },
        undefined,
        from(client),
      );
      expect(res.status).toBe(401);
    }
    retryAfterOf(
      await app.call(
        "POST",
        "/v1/auth/otp/verify",
        { email: `nobody9@example.com`, otp: "123456" },
        undefined,
        from(client),
      ),
    );
  });

  it("refreshes per session: the fourth refresh of one session within the window is 429; another session is not affected", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ refreshes_per_session: 3 });
    const { body } = await app.signup();
    let token = body.refresh_token as string;
    for (let i = 0; i < 3; i++) {
      const res = await app.call("POST", "/v1/auth/token/refresh", { refresh_token: token });
      expect(res.status).toBe(200);
      token = res.body.refresh_token;
    }
    const refused = await app.call("POST", "/v1/auth/token/refresh", { refresh_token: token });
    expect(retryAfterOf(refused)).toBeGreaterThan(250);
    const other = await app.signup();
    expect((await app.call("POST", "/v1/auth/token/refresh", { refresh_token: other.body.refresh_token })).status).toBe(
      200,
    );
  });

  it("signups per IP address", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ signups_per_ip: 2 });
    const client = freshIp();
    const signup = (i: number) =>
      app.call(
        "POST",
        "/v1/auth/signup",
        { email: `s${i}-${Date.now()}@example.com`, password: "a sturdy passphrase 1" },
        undefined,
        from(client),
      );
    expect((await signup(1)).status).toBe(200);
    expect((await signup(2)).status).toBe(200);
    retryAfterOf(await signup(3));
  });

  it("UpdateProject checks the limits: out of bounds and a longest wait below the first one", async () => {
    const app = await limitsApp(ctx.server);
    await expect(app.setLimits({ sign_in_failures_per_account: 101 })).rejects.toThrow(
      /rate_limits.sign_in_failures_per_account/,
    );
    await expect(app.setLimits({ sign_in_wait_seconds: 1000 })).rejects.toThrow(/rate_limits.sign_in_max_wait_seconds/);
    const res = await app.setLimits({ sign_in_max_wait_seconds: 3000 });
    expect(res.body.rate_limits.sign_in_max_wait_seconds).toBe(3000);
    const both = await app.setLimits({ sign_in_wait_seconds: 1000 });
    expect(both.body.rate_limits).toMatchObject({
      sign_in_wait_seconds: 1000,
      sign_in_max_wait_seconds: 3000,
      failures_per_ip: 30,
    });
  });
});
