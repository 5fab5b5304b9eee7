import { describe, expect, it } from "vitest";
import { challenge, newUser, verifyMfa } from "../auth/mfa-helpers.js";
import { newEmail, newPhone } from "../auth/passwordless-helpers.js";
import { eventually } from "../helpers/eventually.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { registry } from "../../src/metrics/registry.js";
import { BEHIND_PROXY, freshIp, from, limitsApp, retryAfterOf, sleep, type LimitsApp } from "./helpers.js";

// Threats: a public credential spends the project's send budget on anonymous first contacts
// (50 SMS to +1900 numbers from one network used the project's cap, after which every real user
// got 429 for codes and links and SMS challenges were dropped), and toll fraud ("SMS pumping")
// through premium-rate numbers or a country the project never serves. Sends to the project's
// users and sends to new addresses have budgets of their own; a spent budget answers as usual
// (a refusal for unknown addresses only would tell which are registered) and alerts the admins.

describe("send budgets and where SMS may go", () => {
  const ctx = useMessagingServer({ smtp: true, sms: true, env: BEHIND_PROXY });
  const settled = () =>
    eventually(
      "the outbox to settle",
      async () => (await ctx.sql(`SELECT count(*)::int AS n FROM outbox WHERE sent_at IS NULL`))[0].n === 0,
    );
  const smsTo = (phone: string) => ctx.sms.messages.filter((m) => m.to === phone).length;
  const mailsTo = (email: string) => ctx.smtp.messages.filter((m) => m.to.includes(email)).length;
  const budgetEvents = async (app: LimitsApp) =>
    (await ctx.sql(`SELECT details FROM audit_events WHERE project_id = $1 AND type = 'send_budget.reached'`, [
      app.projectId,
    ])) as Array<{ details: any }>;
  const dropped = async (budget: string, channel: string) =>
    (await registry.getSingleMetric("gatehouse_send_budget_reached_total")!.get()).values.find(
      (v) => v.labels.budget === budget && v.labels.channel === channel,
    )?.value ?? 0;
  const sendOtp = (app: LimitsApp, body: Record<string, string>) =>
    app.call("POST", "/v1/auth/otp/send", body, undefined, from(freshIp()));
  const setProject = async (app: LimitsApp, body: Record<string, unknown>) => {
    const res = await fetch(`${ctx.server.url}/v1/projects/${app.projectId}`, {
      method: "PATCH",
      headers: { ...(await app.admin()), "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
  };

  it("anonymous first contacts spend only their own budget: users still get codes, links and SMS challenges; the admins are told once", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ first_contact_sends_per_project: 5 });
    // Users first: a phone user (an SMS code to a new number is a first contact: 1 of 5), an
    // email user with an SMS second factor (a number not proven yet is one too: 2 of 5).
    const phone = newPhone();
    expect((await sendOtp(app, { phone })).status).toBe(200);
    expect((await app.call("POST", "/v1/auth/otp/verify", { phone, otp: await ctx.sms.codeFor(phone) })).status).toBe(
      200,
    );
    const user = await newUser(app);
    const factorPhone = newPhone();
    expect(
      (await app.call("POST", "/v1/auth/mfa/enroll", { method: "sms", phone: factorPhone }, user.accessToken)).status,
    ).toBe(200);
    expect((await verifyMfa(app, { code: await ctx.sms.codeFor(factorPhone) }, user.accessToken)).status).toBe(200);

    const before = await dropped("first_contact", "sms");
    const flood = Array.from({ length: 20 }, () => newPhone());
    const answers = [];
    for (const number of flood) answers.push(await sendOtp(app, { phone: number }));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    await settled();
    expect(flood.map(smsTo).reduce((a, b) => a + b, 0)).toBe(3);
    expect((await dropped("first_contact", "sms")) - before).toBe(17);

    // The users' budget is whole: an email code, a magic link, an SMS code and an SMS challenge.
    ctx.clock.advance(61_000);
    expect((await sendOtp(app, { email: user.email })).status).toBe(200);
    expect(
      (await app.call("POST", "/v1/auth/magic-link/send", { email: user.email }, undefined, from(freshIp()))).status,
    ).toBe(200);
    expect((await sendOtp(app, { phone })).status).toBe(200);
    await ctx.smtp.waitFor(user.email, { nth: 2 });
    await ctx.sms.waitFor(phone, { nth: 2 });
    const token = await challenge(app, user, ["sms"]);
    expect(
      (await verifyMfa(app, { mfa_token: token, code: await ctx.sms.codeFor(factorPhone, { nth: 2 }) })).status,
    ).toBe(200);

    await eventually("the alert", async () => (await budgetEvents(app)).length === 1);
    await sleep(200);
    const events = await budgetEvents(app);
    expect(events).toHaveLength(1);
    expect(events[0].details).toMatchObject({ budget: "first_contact", limit: 5, channel: "sms", kind: "otp" });
  });

  it("a spent users' budget answers as for anyone and sends nothing more; first contacts still go out", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ sends_per_project: 2 });
    const users = [await newUser(app), await newUser(app), await newUser(app)];
    const answers = [];
    for (const user of users)
      answers.push(
        await app.call("POST", "/v1/auth/magic-link/send", { email: user.email }, undefined, from(freshIp())),
      );
    const stranger = newEmail("stranger");
    answers.push(await app.call("POST", "/v1/auth/magic-link/send", { email: stranger }, undefined, from(freshIp())));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    await ctx.smtp.waitFor(stranger);
    await settled();
    expect(users.map((u) => mailsTo(u.email))).toEqual([1, 1, 0]);
    await eventually("the alert", async () => (await budgetEvents(app)).some((e) => e.details.budget === "users"));
  });

  it("premium-rate and other high-cost numbers are refused, whatever the project allows, and cost no budget", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ first_contact_sends_per_project: 1 });
    const premium = Array.from({ length: 50 }, (_, i) => `+1900555${String(1000 + i)}`);
    for (const phone of [...premium, "+447010000001", "+88160000001", "+979123456789"]) {
      const res = await sendOtp(app, { phone });
      expect(res.status).toBe(400);
      expect(res.body.reason).toBe("VALIDATION_FAILED");
      expect(res.body.violations).toEqual([
        { field: "phone", description: expect.stringMatching(/^cannot receive sign-in codes/) },
      ]);
    }
    const user = await newUser(app);
    const enroll = await app.call(
      "POST",
      "/v1/auth/mfa/enroll",
      { method: "sms", phone: "+19005550100" },
      user.accessToken,
    );
    expect(enroll.body.violations?.[0]?.field).toBe("phone");
    // The one first contact of the budget is still there.
    const real = newPhone();
    expect((await sendOtp(app, { phone: real })).status).toBe(200);
    await ctx.sms.waitFor(real);
    await settled();
    expect(ctx.sms.messages.filter((m) => m.to.startsWith("+1900"))).toEqual([]);
  });

  it("sms_country_codes: a number of another country is refused by SendOtp and StartMfaEnrollment; clearing the list allows it again", async () => {
    const app = await limitsApp(ctx.server);
    await setProject(app, { sms_country_codes: ["44"] });
    const american = newPhone();
    const refused = await sendOtp(app, { phone: american });
    expect(refused.status).toBe(400);
    expect(refused.body.violations).toEqual([{ field: "phone", description: expect.stringContaining("+1") }]);
    const user = await newUser(app);
    expect(
      (await app.call("POST", "/v1/auth/mfa/enroll", { method: "sms", phone: american }, user.accessToken)).status,
    ).toBe(400);
    const british = "+447700900123";
    expect((await sendOtp(app, { phone: british })).status).toBe(200);
    await ctx.sms.waitFor(british);
    await setProject(app, { clear_sms_country_codes: true });
    expect((await sendOtp(app, { phone: american })).status).toBe(200);
    await ctx.sms.waitFor(american);
  });

  it("first_contact_sms_per_country: one country's new numbers stop at its budget, another country's go on", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ first_contact_sms_per_country: 2 });
    const british = ["+447700900201", "+447700900202", "+447700900203"];
    const answers = [];
    for (const phone of british) answers.push((await sendOtp(app, { phone })).status);
    const french = "+33612345678";
    answers.push((await sendOtp(app, { phone: french })).status);
    expect(answers).toEqual([200, 200, 200, 200]);
    await ctx.sms.waitFor(french);
    await settled();
    expect(british.map(smsTo)).toEqual([1, 1, 0]);
    await eventually("the alert", async () =>
      (await budgetEvents(app)).some((e) => e.details.budget === "first_contact_country" && e.details.country === "44"),
    );
  });

  it("sms_per_destination_per_day: past it SendOtp to the number is 429 until the day is over", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ sms_per_destination_per_day: 2 });
    const phone = newPhone();
    for (let i = 0; i < 2; i++) {
      expect((await sendOtp(app, { phone })).status).toBe(200);
      // Past the one-a-minute rule, which follows the service's clock.
      ctx.clock.advance(61_000);
    }
    expect(retryAfterOf(await sendOtp(app, { phone }))).toBeGreaterThan(86_000);
    await settled();
    expect(smsTo(phone)).toBe(2);
  });
});

describe("send budgets in the Redis store (REDIS_URL)", () => {
  const ctx = useMessagingServer({
    smtp: true,
    sms: true,
    env: { ...BEHIND_PROXY, REDIS_URL: "redis://127.0.0.1:6379" },
  });

  it("first contacts spend their own budget; a user's code still goes out", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ first_contact_sends_per_project: 2 });
    const user = await newUser(app);
    const strangers = [newPhone(), newPhone(), newPhone(), newPhone()];
    for (const phone of strangers)
      expect((await app.call("POST", "/v1/auth/otp/send", { phone }, undefined, from(freshIp()))).status).toBe(200);
    expect(
      (await app.call("POST", "/v1/auth/otp/send", { email: user.email }, undefined, from(freshIp()))).status,
    ).toBe(200);
    await ctx.smtp.waitFor(user.email);
    await eventually(
      "the outbox to settle",
      async () => (await ctx.sql(`SELECT count(*)::int AS n FROM outbox WHERE sent_at IS NULL`))[0].n === 0,
    );
    expect(strangers.filter((phone) => ctx.sms.messages.some((m) => m.to === phone))).toHaveLength(2);
    expect(ctx.server.deps.limits.store).toBe("redis");
  });
});
