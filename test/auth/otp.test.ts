import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { connectReason, grpcCall, grpcClient, http } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import {
  expectReason,
  newEmail,
  newPhone,
  passwordlessProject,
  PROJECT_NAME,
  usagePeriod,
  verifiedClaims,
  wrongCode,
  type PasswordlessProject,
} from "./passwordless-helpers.js";
import { injectConnect } from "../helpers/inject.js";

// One-time sign-in codes by email and SMS, what a user sees: an answer that never tells whether
// the address is registered, a message naming the project, a code that signs a new user up or an
// existing one in with the address verified, usage counted as a passwordless sign-in, and a
// stored code that a stolen table does not give away.

const CODE = /\b(\d{6})\b/;

describe("one-time codes: sending and signing in", () => {
  const ctx = useMessagingServer({ smtp: true, sms: true });
  const { clock, sql } = ctx;
  let app: PasswordlessProject;

  beforeAll(async () => {
    app = await passwordlessProject(ctx.server);
  });

  /** Sends a code by email and answers the code in the `nth` mail to `email`. */
  async function emailCode(email: string, nth = 1, project = app): Promise<string> {
    const sent = await project.call("POST", "/v1/auth/otp/send", { email });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const mail = await ctx.smtp.waitFor(email, { nth });
    const code = CODE.exec(mail.text)?.[1];
    expect(code, mail.text).toBeTruthy();
    return code!;
  }
  const verifyOtp = (body: Record<string, string>, project = app) => project.call("POST", "/v1/auth/otp/verify", body);
  const login = (email: string, password: string) => app.call("POST", "/v1/auth/login", { email, password });

  it("SendOtp answers the same for a registered and an unknown address, and each gets a code naming the project", async () => {
    const registered = newEmail("registered");
    expect(
      (await app.call("POST", "/v1/auth/signup", { email: registered, password: "a sturdy passphrase 1" })).status,
    ).toBe(200);
    const unknown = newEmail("unknown");
    const known = await app.call("POST", "/v1/auth/otp/send", { email: registered });
    const stranger = await app.call("POST", "/v1/auth/otp/send", { email: unknown });
    expect(known.status).toBe(200);
    expect(stranger.status).toBe(200);
    expect(known.body).toEqual(stranger.body);
    expect(known.body).toEqual({ message: expect.any(String), expires_in: 600 });

    for (const email of [registered, unknown]) {
      const mail = await ctx.smtp.waitFor(email);
      expect(mail.subject).toContain(PROJECT_NAME);
      expect(mail.text).toContain(PROJECT_NAME);
      const code = CODE.exec(mail.text)?.[1];
      expect(code).toMatch(/^\d{6}$/);
      expect(mail.html).toContain(code);
    }
  });

  it("VerifyOtp signs a new user up with the email verified and no password; the token carries amr otp", async () => {
    const email = newEmail("newcomer");
    const code = await emailCode(email);
    const res = await verifyOtp({ email, otp: code });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      token_type: "Bearer",
      expires_in: 3600,
      user: { email, email_verified: true, phone: "", phone_verified: false },
    });
    expect(res.body.refresh_token).toMatch(/^grt_/);
    expect(res.body.mfa_token).toBeUndefined();
    const claims = await verifiedClaims(app, res.body.access_token);
    expect(claims).toMatchObject({ sub: res.body.user.id, email, project_id: app.projectId, amr: ["otp"] });

    // No password was set: no password signs in, and the answer is the usual one.
    expectReason(await login(email, "a sturdy passphrase 1"), 401, "INVALID_CREDENTIALS");
    const stored = await app.call("GET", `/v1/auth/users/${res.body.user.id}`);
    expect(stored.body).toMatchObject({ id: res.body.user.id, email, email_verified: true });
  });

  it("VerifyOtp signs an existing password user in as the same user and marks the email verified", async () => {
    const email = newEmail("existing");
    const signup = await app.call("POST", "/v1/auth/signup", { email, password: "a sturdy passphrase 1" });
    expect(signup.body.user.email_verified).toBe(false);
    // The address as typed differently still reaches the same user.
    const code = await emailCode(email);
    const res = await verifyOtp({ email: email.toUpperCase(), otp: code });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user).toMatchObject({ id: signup.body.user.id, email, email_verified: true });
    expect((await verifiedClaims(app, res.body.access_token)).amr).toEqual(["otp"]);
    expect((await app.call("GET", `/v1/auth/users/${signup.body.user.id}`)).body.email_verified).toBe(true);
    // The password still works: a code adds a way in, it takes none away.
    expect((await login(email, "a sturdy passphrase 1")).status).toBe(200);
  });

  it("by SMS: a phone alone picks the SMS channel; the new user has the phone verified and no email; the same phone signs the same user in", async () => {
    const phone = newPhone();
    const sent = await app.call("POST", "/v1/auth/otp/send", { phone });
    expect(sent.body).toEqual({ message: expect.any(String), expires_in: 600 });
    const message = await ctx.sms.waitFor(phone);
    expect(message.body).toContain(PROJECT_NAME);
    const first = await verifyOtp({ phone, otp: await ctx.sms.codeFor(phone) });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.user).toMatchObject({ email: "", email_verified: false, phone, phone_verified: true });
    expect((await verifiedClaims(app, first.body.access_token)).amr).toEqual(["otp"]);
    // No mail went anywhere for it.
    expect(ctx.smtp.messages.filter((m) => m.text.includes(phone))).toEqual([]);

    clock.advance(60_000);
    const again = await app.call("POST", "/v1/auth/otp/send", { phone, channel: "sms" });
    expect(again.status).toBe(200);
    const second = await verifyOtp({ phone, otp: await ctx.sms.codeFor(phone, { nth: 2 }) });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.user.id).toBe(first.body.user.id);
    expect(
      (await sql(`SELECT id FROM users WHERE project_id = $1 AND phone = $2`, [app.projectId, phone])).length,
    ).toBe(1);
  });

  it("over Connect JSON: SendOtp, a wrong code, then VerifyOtp; over gRPC: SendOtp and VerifyOtp by SMS", async () => {
    const headers = { "x-service-key": app.key };
    const email = newEmail("connect");
    const sent = await injectConnect(ctx.server.handle, "auth", "SendOtp", { email }, headers);
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ message: expect.any(String), expires_in: 600 });
    const code = CODE.exec((await ctx.smtp.waitFor(email)).text)![1];
    const wrong = await injectConnect(ctx.server.handle, "auth", "VerifyOtp", { email, otp: wrongCode(code) }, headers);
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("unauthenticated");
    expect(connectReason(wrong.body)).toBe("INVALID_CODE");
    const ok = await injectConnect(ctx.server.handle, "auth", "VerifyOtp", { email, otp: code }, headers);
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ email, email_verified: true });
    expect((await verifiedClaims(app, ok.body.access_token)).amr).toEqual(["otp"]);

    const client = grpcClient(ctx.server.port, "auth");
    const phone = newPhone();
    const grpcSent = await grpcCall(client, "SendOtp", { phone, channel: "sms" }, headers);
    expect(grpcSent.error).toBeUndefined();
    expect(grpcSent.response).toEqual({ message: sent.body.message, expires_in: 600 });
    const verified = await grpcCall(client, "VerifyOtp", { phone, otp: await ctx.sms.codeFor(phone) }, headers);
    expect(verified.error).toBeUndefined();
    expect(verified.response.user).toMatchObject({ phone, phone_verified: true, email: "" });
    expect((await verifiedClaims(app, verified.response.access_token)).amr).toEqual(["otp"]);
    const reused = await grpcCall(client, "VerifyOtp", { phone, otp: await ctx.sms.codeFor(phone) }, headers);
    expect(reused.error?.code).toBe(16);
    expect(reused.reason).toBe("INVALID_CODE");
  });

  describe("bad input is VALIDATION_FAILED naming the field, and sends nothing", () => {
    const cases: Array<{ name: string; path: string; body: Record<string, string>; field: string }> = [
      {
        name: "channel email without an email",
        path: "otp/send",
        body: { channel: "email", phone: "+15550000001" },
        field: "email",
      },
      {
        name: "channel sms without a phone",
        path: "otp/send",
        body: { channel: "sms", email: "sms-less@example.com" },
        field: "phone",
      },
      { name: "no address at all", path: "otp/send", body: {}, field: "email" },
      {
        name: "an unknown channel",
        path: "otp/send",
        body: { channel: "pigeon", email: "bird@example.com" },
        field: "channel",
      },
      { name: "a phone not in E.164 form", path: "otp/send", body: { phone: "555-0100" }, field: "phone" },
      {
        name: "verify with both email and phone",
        path: "otp/verify",
        body: { email: "both@example.com", phone: "+15550000002", otp: "123456" },
        field: "phone",
      },
      { name: "verify with neither", path: "otp/verify", body: { otp: "123456" }, field: "email" },
      {
        name: "a five-digit code",
        path: "otp/verify",
        body: { email: "short@example.com", otp: "12345" },
        field: "otp",
      },
      {
        name: "a seven-digit code",
        path: "otp/verify",
        body: { email: "long@example.com", otp: "1234567" },
        field: "otp",
      },
      {
        name: "letters for a code",
        path: "otp/verify",
        body: { email: "letters@example.com", otp: "12a456" },
        field: "otp",
      },
      { name: "no code", path: "otp/verify", body: { email: "none@example.com" }, field: "otp" },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const res = await app.call("POST", `/v1/auth/${c.path}`, c.body);
        expectReason(res, 400, "VALIDATION_FAILED");
        expect(res.body.violations.map((v: { field: string }) => v.field)).toEqual([c.field]);
      });
    }
    it("none of them queued a message", async () => {
      const rows = await sql(
        `SELECT recipient FROM outbox WHERE recipient IN ('sms-less@example.com', 'bird@example.com', '+15550000001', '555-0100')`,
      );
      expect(rows).toEqual([]);
    });
  });

  it("the stored row holds neither the code nor its bare SHA-256", async () => {
    const email = newEmail("stored");
    const code = await emailCode(email);
    const rows = await sql(`SELECT * FROM otp_codes WHERE project_id = $1 AND destination = $2`, [
      app.projectId,
      email,
    ]);
    expect(rows).toHaveLength(1);
    const sha = createHash("sha256").update(code).digest();
    const forbidden = [code, sha.toString("hex"), sha.toString("base64"), sha.toString("base64url")];
    for (const value of Object.values(rows[0] as Record<string, unknown>)) {
      const text = value instanceof Date ? value.toISOString() : String(value);
      for (const secret of forbidden) expect(text).not.toBe(secret);
    }
    expect(rows[0].code_hmac).toMatch(/^[0-9a-f]{64}$/);
    // The stored value is keyed: it is not a hash of the code with its address either.
    expect(rows[0].code_hmac).not.toBe(createHash("sha256").update(`${email}${code}`).digest("hex"));
    expect((await verifyOtp({ email, otp: code })).status).toBe(200);
  });

  it("usage counts OTP sign-ins of an existing user as passwordless logins, and an OTP signup as a signup only", async () => {
    const counted = await passwordlessProject(ctx.server, "Usage counted");
    const newcomer = newEmail("usage-new");
    expect((await verifyOtp({ email: newcomer, otp: await emailCode(newcomer, 1, counted) }, counted)).status).toBe(
      200,
    );
    const usage = async () => {
      const res = await http(`${ctx.server.url}/v1/usage?project_id=${counted.projectId}&${usagePeriod(clock.now())}`, {
        headers: counted.management,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    expect(await usage()).toMatchObject({
      mau: 1,
      total_logins: 0,
      passwordless_logins: 0,
      tokens_issued: 1,
      sso_logins: 0,
    });

    const member = newEmail("usage-existing");
    expect(
      (await counted.call("POST", "/v1/auth/signup", { email: member, password: "a sturdy passphrase 1" })).status,
    ).toBe(200);
    expect((await verifyOtp({ email: member, otp: await emailCode(member, 1, counted) }, counted)).status).toBe(200);
    clock.advance(60_000);
    expect((await verifyOtp({ email: member, otp: await emailCode(member, 2, counted) }, counted)).status).toBe(200);
    expect(await usage()).toMatchObject({
      mau: 2,
      total_logins: 2,
      passwordless_logins: 2,
      tokens_issued: 4,
      sso_logins: 0,
    });
    // A wrong code is not a sign-in.
    clock.advance(60_000);
    const code = await emailCode(member, 3, counted);
    expectReason(await verifyOtp({ email: member, otp: wrongCode(code) }, counted), 401, "INVALID_CODE");
    expect(await usage()).toMatchObject({ mau: 2, total_logins: 2, passwordless_logins: 2, tokens_issued: 4 });
  });

  it("a disabled user with the right code is USER_DISABLED; with a wrong one, INVALID_CODE like anyone", async () => {
    const email = newEmail("disabled");
    const signup = await app.call("POST", "/v1/auth/signup", { email, password: "a sturdy passphrase 1" });
    expect((await app.call("PATCH", `/v1/auth/users/${signup.body.user.id}`, { disabled: true })).status).toBe(200);
    const code = await emailCode(email);
    expectReason(await verifyOtp({ email, otp: wrongCode(code) }), 401, "INVALID_CODE");
    const right = await verifyOtp({ email, otp: code });
    expectReason(right, 403, "USER_DISABLED");
    expect(right.body.access_token).toBeUndefined();
    expect(await sql(`SELECT id FROM sessions WHERE user_id = $1`, [signup.body.user.id])).toHaveLength(1);
  });
});
