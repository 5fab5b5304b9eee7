import { describe, expect, it } from "vitest";
import { challenge, enrollTotp, freshCode, newUser, verifyMfa, type MfaUser } from "../auth/mfa-helpers.js";
import { eventually } from "../helpers/eventually.js";
import { useMessagingServer, type MessagingServer } from "../helpers/messaging-server.js";
import { BEHIND_PROXY, freshIp, from, limitsApp, retryAfterOf, sleep, type LimitsApp } from "./helpers.js";
import { injectHttp } from "../helpers/inject.js";

// Threat: someone who knows a user's password guesses the second factor. Each password sign-in
// opens a new challenge (five wrong codes each) from a new client address (a new per-IP
// count), so counting per challenge and per address let 1,290 wrong TOTP codes through in 20 s
// (a hit expected in about 1.5 h). Wrong second factors now count per user, across challenges,
// addresses and instances, with the password's growing waits; the user is told once.

async function totpUser(
  ctx: MessagingServer,
  app: LimitsApp,
): Promise<MfaUser & { secret: string; recoveryCodes: string[] }> {
  const user = await newUser(app);
  return { ...user, ...(await enrollTotp(app, ctx.clock, user.accessToken)) };
}

/** A password sign-in and one answer to its challenge, each from a new client address. */
async function answer(app: LimitsApp, user: MfaUser, code: string) {
  const login = await app.call(
    "POST",
    "/v1/auth/login",
    { email: user.email, password: user.password },
    undefined,
    from(freshIp()),
  );
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return app.call("POST", "/v1/auth/mfa/verify", { mfa_token: login.body.mfa_token, code }, undefined, from(freshIp()));
}

const wrongOf = (code: string) => String((Number(code) + 500_000) % 1_000_000).padStart(6, "0");

/** `tries` wrong answers, each to a new challenge from a new address: the statuses. */
async function guessEachFromNewChallenge(
  ctx: MessagingServer,
  app: LimitsApp,
  user: MfaUser & { secret: string },
  tries: number,
): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < tries; i++)
    statuses.push((await answer(app, user, wrongOf(await freshCode(user.secret, ctx.clock)))).status);
  return statuses;
}

describe("wrong second factors count per user", () => {
  const ctx = useMessagingServer({ smtp: true, env: BEHIND_PROXY });
  const events = async (app: LimitsApp, type: string) =>
    (await ctx.sql(`SELECT user_id, ip_address, details FROM audit_events WHERE project_id = $1 AND type = $2`, [
      app.projectId,
      type,
    ])) as Array<{ user_id: string; details: any }>;

  it("a new challenge from a new address per guess: after mfa_failures_per_account (10) every answer waits, the right one too; one notice and one audit event", async () => {
    const app = await limitsApp(ctx.server);
    const user = await totpUser(ctx, app);
    const statuses = await guessEachFromNewChallenge(ctx, app, user, 20);
    // Ten guesses checked, whatever the number of challenges and addresses; every password sign-in still opened one.
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    const right = await answer(app, user, await freshCode(user.secret, ctx.clock));
    expect(retryAfterOf(right)).toBeGreaterThanOrEqual(1);
    expect((await answer(app, user, user.recoveryCodes[0])).status).toBe(429);

    const notice = await ctx.smtp.waitFor(user.email);
    expect(notice.subject).toMatch(/may know your .* password/);
    expect(notice.text).toMatch(/10 wrong verification codes/);
    expect(notice.text).not.toMatch(/https?:\/\//);
    await eventually("the audit event", async () => (await events(app, "user.mfa.failures_exceeded")).length === 1);
    const [event] = await events(app, "user.mfa.failures_exceeded");
    expect(event).toMatchObject({ user_id: user.userId, details: { failures: 10 } });
    // Told once: the later refusals send nothing more.
    await sleep(300);
    expect(ctx.smtp.messages.filter((m) => m.to.includes(user.email))).toHaveLength(1);
  });

  it("the waits grow with each failure past the threshold; a right second factor forgets them, a right password does not", async () => {
    const app = await limitsApp(ctx.server);
    // Long enough that the answer after a failure is still inside its wait on a busy machine.
    await app.setLimits({ mfa_failures_per_account: 2, sign_in_wait_seconds: 3, sign_in_max_wait_seconds: 30 });
    const user = await totpUser(ctx, app);
    const next = () => freshCode(user.secret, ctx.clock);
    expect((await answer(app, user, wrongOf(await next()))).status).toBe(401);
    expect((await answer(app, user, wrongOf(await next()))).status).toBe(401);
    const first = retryAfterOf(await answer(app, user, await next()));
    expect(first).toBeLessThanOrEqual(3);
    await sleep(first * 1000 + 300);
    // One more try after the wait: wrong again, so the next wait is a step longer.
    expect((await answer(app, user, wrongOf(await next()))).status).toBe(401);
    const second = retryAfterOf(await answer(app, user, await next()));
    expect(second).toBeGreaterThan(3);
    expect(second).toBeLessThanOrEqual(6);
    await sleep(second * 1000 + 300);
    expect((await answer(app, user, await next())).status).toBe(200);
    // Forgotten: two more wrong answers are checked (401) before the next wait.
    expect((await answer(app, user, wrongOf(await next()))).status).toBe(401);
    expect((await answer(app, user, wrongOf(await next()))).status).toBe(401);
    retryAfterOf(await answer(app, user, await next()));
  });

  it("recovery codes and six-digit codes count alike, and another user of the project is not affected", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ mfa_failures_per_account: 2, sign_in_wait_seconds: 60 });
    const user = await totpUser(ctx, app);
    const other = await totpUser(ctx, app);
    expect((await answer(app, user, "not-a-recovery-code")).status).toBe(401);
    expect((await answer(app, user, wrongOf(await freshCode(user.secret, ctx.clock)))).status).toBe(401);
    retryAfterOf(await answer(app, user, user.recoveryCodes[0]));
    expect((await answer(app, other, await freshCode(other.secret, ctx.clock))).status).toBe(200);
  });

  it("an enrollment challenge's wrong first codes are no guesses at a factor and do not count for the user", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ mfa_failures_per_account: 1 });
    const required = await injectHttp(ctx.server.handle, `/v1/projects/${app.projectId}`, {
      method: "PATCH",
      headers: await app.admin(),
      body: { mfa_required: true },
    });
    expect(required.status).toBe(200);
    const { email, password, body } = await app.signup();
    const enrollToken = body.mfa_token as string;
    const started = await app.call("POST", "/v1/auth/mfa/enroll", { method: "totp", mfa_token: enrollToken });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    for (let i = 0; i < 3; i++)
      expect((await verifyMfa(app, { mfa_token: enrollToken, code: "000000" })).status).toBe(401);
    const secret = new URL(started.body.totp_uri).searchParams.get("secret")!;
    expect((await verifyMfa(app, { mfa_token: enrollToken, code: await freshCode(secret, ctx.clock) })).status).toBe(
      200,
    );
    // The next sign-in's right code is checked, not refused: nothing was counted against the user.
    const token = await challenge(app, { email, password });
    expect((await verifyMfa(app, { mfa_token: token, code: await freshCode(secret, ctx.clock) })).status).toBe(200);
  });
});

describe("wrong second factors count per user in the Redis store (REDIS_URL)", () => {
  const ctx = useMessagingServer({ env: { ...BEHIND_PROXY, REDIS_URL: "redis://127.0.0.1:6379" } });

  it("the threshold holds across challenges and addresses, and a right second factor is refused too", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ mfa_failures_per_account: 3 });
    const user = await totpUser(ctx, app);
    expect(await guessEachFromNewChallenge(ctx, app, user, 6)).toEqual([401, 401, 401, 429, 429, 429]);
    retryAfterOf(await answer(app, user, await freshCode(user.secret, ctx.clock)));
    expect(ctx.server.deps.limits.store).toBe("redis");
  });
});
