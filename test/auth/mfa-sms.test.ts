import { beforeAll, describe, expect, it } from "vitest";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import {
  claims,
  enrollTotp,
  expectChallenge,
  expectReason,
  freshCode,
  getUser,
  login,
  newUser,
  tokenValid,
  verifyMfa,
  type MfaUser,
} from "./mfa-helpers.js";

// Threats: an SMS factor active on a phone its owner never received a code on; a challenge
// code guessed (wrong codes count, five spend the mfa_token) or a pending enrollment guessed
// without limit. Delivery is real: the server posts to a loopback webhook (SMS_WEBHOOK_URL).

let phones = 0;
/** A phone number no other test uses, so `codeFor(phone)` reads this test's messages only. */
const newPhone = () => `+1555${String(process.pid % 1000).padStart(3, "0")}${String(++phones).padStart(4, "0")}`;
/** Any six-digit code other than `code`. */
const other = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("SMS as a second factor", () => {
  const ctx = useMessagingServer({ sms: true });
  const { clock, sql } = ctx;
  let app: AuthFixture;
  beforeAll(async () => {
    app = await authFixture(ctx.server);
  });

  const startSms = (user: MfaUser, phone: string) =>
    app.call("POST", "/v1/auth/mfa/enroll", { method: "sms", phone }, user.accessToken);

  /** A user whose only factor is SMS on `phone` (the enrollment code is the phone's first SMS). */
  async function smsUser(): Promise<MfaUser & { phone: string }> {
    const user = await newUser(app);
    const phone = newPhone();
    expect((await startSms(user, phone)).status).toBe(200);
    const done = await verifyMfa(app, { code: await ctx.sms.codeFor(phone) }, user.accessToken);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    return { ...user, phone };
  }

  it("StartMfaEnrollment texts the phone a code naming the project and answers no URI and no QR code; VerifyMfa with it finalizes", async () => {
    const user = await newUser(app);
    const phone = newPhone();
    const res = await startSms(user, phone);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ method: "sms", totp_uri: "", qr_code: "" });

    const message = await ctx.sms.waitFor(phone);
    expect(message.body).toContain("Auth test");
    const code = await ctx.sms.codeFor(phone);
    expect(await getUser(app, user.userId)).toMatchObject({ mfa_enabled: false, mfa_methods: [] });
    // The code is stored as an HMAC, never as itself.
    const rows = await sql(`SELECT phone, pending_code_hmac FROM mfa_factors WHERE user_id = $1`, [user.userId]);
    expect(rows).toEqual([{ phone, pending_code_hmac: expect.any(String) }]);
    expect(rows[0].pending_code_hmac).not.toContain(code);

    expectReason(await verifyMfa(app, { code: other(code) }, user.accessToken), 401, "INVALID_CODE");
    const done = await verifyMfa(app, { code, method: "sms" }, user.accessToken);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ enrolled: true, method: "sms" });
    expect(new Set(done.body.recovery_codes).size).toBe(10);
    expect(await getUser(app, user.userId)).toMatchObject({ mfa_enabled: true, mfa_methods: ["sms"] });
  });

  it("StartMfaEnrollment for sms without a phone is 400 VALIDATION_FAILED on phone, and sends nothing", async () => {
    const user = await newUser(app);
    const before = ctx.sms.messages.length;
    const res = await app.call("POST", "/v1/auth/mfa/enroll", { method: "sms" }, user.accessToken);
    expectReason(res, 400, "VALIDATION_FAILED");
    expect(res.body.violations.map((v: { field: string }) => v.field)).toEqual(["phone"]);
    const malformed = await startSms(user, "555-1234");
    expectReason(malformed, 400, "VALIDATION_FAILED");
    expect(malformed.body.violations.map((v: { field: string }) => v.field)).toEqual(["phone"]);
    expect(await sql(`SELECT id FROM mfa_factors WHERE user_id = $1`, [user.userId])).toEqual([]);
    expect(ctx.sms.messages.length).toBe(before);
  });

  it("at the next password login an SMS-only user gets the challenge with mfa_methods [sms] and an SMS with a new code; it signs in with amr pwd, sms", async () => {
    const user = await smsUser();
    const mfaToken = expectChallenge(await login(app, user), ["sms"]);
    const message = await ctx.sms.waitFor(user.phone, { nth: 2 });
    expect(message.body).toContain("Auth test");
    const code = await ctx.sms.codeFor(user.phone, { nth: 2 });

    const res = await verifyMfa(app, { mfa_token: mfaToken, code });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(claims(res.body.access_token)).toMatchObject({ sub: user.userId, amr: ["pwd", "sms"] });
    expect(await tokenValid(app, res.body.access_token)).toBe(true);

    // The code belongs to that challenge: it does not answer the next one, which has its own.
    const next = expectChallenge(await login(app, user), ["sms"]);
    const nextCode = await ctx.sms.codeFor(user.phone, { nth: 3 });
    // (One time in a million the two random codes are equal; then there is nothing to refuse.)
    if (nextCode !== code) expectReason(await verifyMfa(app, { mfa_token: next, code }), 401, "INVALID_CODE");
    expect((await verifyMfa(app, { mfa_token: next, code: nextCode, method: "sms" })).status).toBe(200);
  });

  it("a wrong SMS code counts as an attempt: four leave the challenge open, five spend it", async () => {
    const user = await smsUser();
    const four = expectChallenge(await login(app, user), ["sms"]);
    const fourCode = await ctx.sms.codeFor(user.phone, { nth: 2 });
    for (let i = 0; i < 4; i++)
      expectReason(await verifyMfa(app, { mfa_token: four, code: other(fourCode) }), 401, "INVALID_CODE");
    expect((await verifyMfa(app, { mfa_token: four, code: fourCode })).status).toBe(200);

    const five = expectChallenge(await login(app, user), ["sms"]);
    const fiveCode = await ctx.sms.codeFor(user.phone, { nth: 3 });
    for (let i = 0; i < 5; i++)
      expectReason(await verifyMfa(app, { mfa_token: five, code: other(fiveCode) }), 401, "INVALID_CODE");
    expectReason(await verifyMfa(app, { mfa_token: five, code: fiveCode }), 401, "INVALID_MFA_TOKEN");
  });

  it("five wrong codes against a pending SMS enrollment drop it: the right code is then MFA_NOT_ENROLLED; four do not", async () => {
    const dropped = await newUser(app);
    const phone = newPhone();
    await startSms(dropped, phone);
    const code = await ctx.sms.codeFor(phone);
    for (let i = 0; i < 5; i++)
      expectReason(await verifyMfa(app, { code: other(code) }, dropped.accessToken), 401, "INVALID_CODE");
    expectReason(await verifyMfa(app, { code }, dropped.accessToken), 400, "MFA_NOT_ENROLLED");
    expect(await sql(`SELECT id FROM mfa_factors WHERE user_id = $1`, [dropped.userId])).toEqual([]);
    expect(await getUser(app, dropped.userId)).toMatchObject({ mfa_enabled: false });

    const kept = await newUser(app);
    const keptPhone = newPhone();
    await startSms(kept, keptPhone);
    const keptCode = await ctx.sms.codeFor(keptPhone);
    for (let i = 0; i < 4; i++)
      expectReason(await verifyMfa(app, { code: other(keptCode) }, kept.accessToken), 401, "INVALID_CODE");
    expect((await verifyMfa(app, { code: keptCode }, kept.accessToken)).body.enrolled).toBe(true);
  });

  it("a user with TOTP and SMS: the challenge lists both, sends no SMS, and TOTP answers it", async () => {
    const user = await newUser(app);
    const { secret } = await enrollTotp(app, clock, user.accessToken);
    const phone = newPhone();
    await startSms(user, phone);
    const second = await verifyMfa(app, { code: await ctx.sms.codeFor(phone) }, user.accessToken);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ enrolled: true, method: "sms", recovery_codes: [] });
    expect((await getUser(app, user.userId)).mfa_methods.sort()).toEqual(["sms", "totp"]);

    const mfaToken = expectChallenge(await login(app, user), ["totp", "sms"]);
    // Nothing queued for the phone beyond the enrollment code.
    expect(await sql(`SELECT count(*)::int AS n FROM outbox WHERE recipient = $1`, [phone])).toEqual([{ n: 1 }]);

    const done = await verifyMfa(app, { mfa_token: mfaToken, code: await freshCode(secret, clock) });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(claims(done.body.access_token).amr).toEqual(["pwd", "totp"]);
    expect(ctx.sms.messages.filter((m) => m.to === phone)).toHaveLength(1);
  });

  it("ten concurrent wrong codes on a pending SMS enrollment: five are counted, then it is gone", async () => {
    const user = await newUser(app);
    const phone = newPhone();
    await startSms(user, phone);
    const code = await ctx.sms.codeFor(phone);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => verifyMfa(app, { code: other(code) }, user.accessToken)),
    );
    const reasons = answers.map((a) => `${a.status} ${a.body?.reason}`).sort();
    expect(reasons).toEqual([...Array(5).fill("400 MFA_NOT_ENROLLED"), ...Array(5).fill("401 INVALID_CODE")]);
    expectReason(await verifyMfa(app, { code }, user.accessToken), 400, "MFA_NOT_ENROLLED");
  });

  it("the enrollment code lasts 10 minutes: after 601 s it is INVALID_CODE, and a new enrollment sends a new one", async () => {
    const user = await newUser(app);
    const phone = newPhone();
    await startSms(user, phone);
    const code = await ctx.sms.codeFor(phone);
    clock.advance(601_000);
    // The access token (1 h) is still valid; the code is not.
    expectReason(await verifyMfa(app, { code }, user.accessToken), 401, "INVALID_CODE");
    await startSms(user, phone);
    expect(
      (await verifyMfa(app, { code: await ctx.sms.codeFor(phone, { nth: 2 }) }, user.accessToken)).body.enrolled,
    ).toBe(true);
  });
});
