import { describe, expect, it } from "vitest";
import { challenge, expectChallenge, login, newUser, verifyMfa } from "../auth/mfa-helpers.js";
import { newPhone } from "../auth/passwordless-helpers.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { eventually } from "../helpers/eventually.js";
import { BEHIND_PROXY, limitsApp, retryAfterOf, sleep } from "./helpers.js";

// Threat: one phone or inbox flooded through the second factor or a profile: enrollments
// started for a number that is not the caller's, sign-ins (with a known password) that each
// text a code, email changes that each mail a link to someone else's address. These count per
// number or address (with SendOtp's and the others'), per client address and per project.

describe("MFA SMS sends", () => {
  const ctx = useMessagingServer({ sms: true, env: BEHIND_PROXY });
  const smsTo = (phone: string) => ctx.sms.messages.filter((m) => m.to === phone).length;
  const settled = () =>
    eventually(
      "the outbox to settle",
      async () => (await ctx.sql(`SELECT count(*)::int AS n FROM outbox WHERE sent_at IS NULL`))[0].n === 0,
    );

  it("StartMfaEnrollment: over sends_per_destination for the number, 429 RATE_LIMITED and no SMS", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ sends_per_destination: 2 });
    const phone = newPhone();
    for (let i = 0; i < 2; i++) {
      const user = await newUser(app);
      expect((await app.call("POST", "/v1/auth/mfa/enroll", { method: "sms", phone }, user.accessToken)).status).toBe(
        200,
      );
    }
    const third = await newUser(app);
    retryAfterOf(await app.call("POST", "/v1/auth/mfa/enroll", { method: "sms", phone }, third.accessToken));
    // Shared with SendOtp: the number has had its two.
    retryAfterOf(await app.call("POST", "/v1/auth/otp/send", { phone }));
    await settled();
    expect(smsTo(phone)).toBe(2);
  });

  it("a sign-in challenge of an SMS-only user: over the limit the challenge stands and no SMS goes out; a recovery code answers it", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ sends_per_destination: 2 });
    const user = await newUser(app);
    const phone = newPhone();
    expect((await app.call("POST", "/v1/auth/mfa/enroll", { method: "sms", phone }, user.accessToken)).status).toBe(
      200,
    );
    const enrolled = await verifyMfa(app, { code: await ctx.sms.codeFor(phone) }, user.accessToken);
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);

    // The second SMS of the number: the challenge's code arrives and answers it.
    const first = await challenge(app, user, ["sms"]);
    const answered = await verifyMfa(app, { mfa_token: first, code: await ctx.sms.codeFor(phone, { nth: 2 }) });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);

    // The third would be over: the challenge answers as ever, nothing is texted.
    const second = expectChallenge(await login(app, user), ["sms"]);
    await sleep(200);
    await settled();
    expect(smsTo(phone)).toBe(2);
    const recovered = await verifyMfa(app, { mfa_token: second, code: enrolled.body.recovery_codes[0] });
    expect(recovered.status, JSON.stringify(recovered.body)).toBe(200);
  });
});

describe("email change mails", () => {
  const ctx = useMessagingServer({ smtp: true, env: BEHIND_PROXY });

  it("a user's own change: over sends_per_destination for the new address, 429 RATE_LIMITED and no mail", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ sends_per_destination: 2 });
    const target = `target-${Date.now()}@example.com`;
    for (let i = 0; i < 2; i++) {
      const user = await newUser(app);
      const res = await app.call("PATCH", `/v1/auth/users/${user.userId}`, { email: target }, user.accessToken);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.new_email).toBe(target);
    }
    const third = await newUser(app);
    retryAfterOf(
      await app.call("PATCH", `/v1/auth/users/${third.userId}`, { email: target.toUpperCase() }, third.accessToken),
    );
    expect((await app.call("GET", `/v1/auth/users/${third.userId}`)).body.new_email).toBe("");
    await ctx.smtp.waitFor(target, { nth: 2 });
    await sleep(200);
    expect(ctx.smtp.messages.filter((m) => m.to.includes(target))).toHaveLength(2);
  });
});
