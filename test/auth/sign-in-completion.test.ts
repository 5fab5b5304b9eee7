import { beforeAll, describe, expect, it } from "vitest";
import type { HttpAnswer } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { completionSteps } from "./completion-helpers.js";
import { authFixture, type AuthFixture } from "./helpers.js";

// Threat: a sign-in method that hands out a session on its own, past the user's MFA, past the
// project's mfa_required, or to a disabled account. Every method ends in one completion step;
// this table runs each method (password, email code, SMS code, magic link) through each state
// (no MFA, TOTP enrolled, SMS enrolled, project mfa_required without MFA) and checks what the
// user sees: tokens whose amr lists every factor proven, or a challenge and no token at all.

const LINK = /https:\/\/app\.example\.com\/callback\?token=(gml_[A-Za-z0-9_-]+)&type=magic_link/;
const CODE = /\b(\d{6})\b/;

interface Who {
  email: string;
  phone: string;
  password: string;
}

interface Method {
  name: string;
  /** What the method adds to the session's amr. */
  factor: "pwd" | "otp" | "magic_link";
  /** The usage method its sign-ins are counted under. */
  usage: "password" | "otp" | "magic_link";
  /** The first sign-in of a new address: for a password, Signup. */
  signUp(app: AuthFixture, who: Who): Promise<HttpAnswer>;
  /** A later sign-in of the same address: for a password, Login. */
  signIn(app: AuthFixture, who: Who): Promise<HttpAnswer>;
}

const ctx = useMessagingServer({ smtp: true, sms: true });
const { clock, sql } = ctx;
const { nextSms, totp, enroll, events, usage } = completionSteps(ctx);
/** A project without mfa_required, and one with it. */
let normal: AuthFixture;
let strict: AuthFixture;
let seq = 0;

/** A new address per cell: no rate limit, no earlier message to confuse. */
const fresh = (): Who => {
  const n = ++seq;
  return {
    email: `cell-${n}@example.com`,
    phone: `+1555${String(n).padStart(7, "0")}`,
    password: "a sturdy passphrase 1",
  };
};

/** The next message to `to` is this many-th: every earlier one has arrived (each send is awaited). */
const nextMail = (to: string) => ({ nth: ctx.smtp.messages.filter((m) => m.to.includes(to)).length + 1 });

/** One send per address a minute: time moves past it before every send. */
async function send(app: AuthFixture, path: string, body: object) {
  clock.advance(61_000);
  const sent = await app.call("POST", path, body);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
}

async function byEmailCode(app: AuthFixture, who: Who) {
  const next = nextMail(who.email);
  await send(app, "/v1/auth/otp/send", { email: who.email });
  const otp = CODE.exec((await ctx.smtp.waitFor(who.email, next)).text)![1];
  return app.call("POST", "/v1/auth/otp/verify", { email: who.email, otp });
}

async function bySmsCode(app: AuthFixture, who: Who) {
  const next = nextSms(who.phone);
  await send(app, "/v1/auth/otp/send", { phone: who.phone });
  return app.call("POST", "/v1/auth/otp/verify", { phone: who.phone, otp: await ctx.sms.codeFor(who.phone, next) });
}

async function byMagicLink(app: AuthFixture, who: Who) {
  const next = nextMail(who.email);
  await send(app, "/v1/auth/magic-link/send", { email: who.email });
  const token = LINK.exec((await ctx.smtp.waitFor(who.email, next)).text)![1];
  return app.call("POST", "/v1/auth/magic-link/verify", { token });
}

const METHODS: Method[] = [
  {
    name: "password",
    factor: "pwd",
    usage: "password",
    signUp: (app, who) => app.call("POST", "/v1/auth/signup", { email: who.email, password: who.password }),
    signIn: (app, who) => app.call("POST", "/v1/auth/login", { email: who.email, password: who.password }),
  },
  { name: "email code", factor: "otp", usage: "otp", signUp: byEmailCode, signIn: byEmailCode },
  { name: "SMS code", factor: "otp", usage: "otp", signUp: bySmsCode, signIn: bySmsCode },
  { name: "magic link", factor: "magic_link", usage: "magic_link", signUp: byMagicLink, signIn: byMagicLink },
];

/** A token response (no challenge field) whose access token verifies with exactly this amr. */
async function expectTokens(answer: HttpAnswer, amr: string[], app = normal) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body).toMatchObject({ token_type: "Bearer", mfa_methods: [] });
  expect(answer.body.access_token).toEqual(expect.any(String));
  expect(answer.body.refresh_token).toEqual(expect.any(String));
  expect(answer.body.user.id).toEqual(expect.any(String));
  expect(answer.body).not.toHaveProperty("mfa_required");
  expect(answer.body).not.toHaveProperty("mfa_token");
  const verified = await app.call("POST", "/v1/auth/token/verify", { token: answer.body.access_token });
  expect(verified.body.valid).toBe(true);
  expect(verified.body.claims.amr).toEqual(amr);
  return answer.body;
}

/** A challenge and nothing else: no access token, no refresh token, no user. */
function expectChallenge(answer: HttpAnswer, methods: string[]): string {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const { request_id: _ignored, ...body } = answer.body;
  expect(body).toEqual({
    mfa_required: true,
    mfa_token: expect.stringMatching(/^gmfa_/),
    mfa_methods: methods,
    expires_in: 300,
  });
  return body.mfa_token;
}

/** Answers an enrollment challenge by enrolling TOTP with its mfa_token: the token response and the enrollment. */
async function enrollThroughChallenge(mfaToken: string, factor: string) {
  const started = await strict.call("POST", "/v1/auth/mfa/enroll", { method: "totp", mfa_token: mfaToken });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const secret = new URL(started.body.totp_uri).searchParams.get("secret")!;
  const done = await strict.call("POST", "/v1/auth/mfa/verify", { mfa_token: mfaToken, code: await totp(secret) });
  const body = await expectTokens(done, [factor, "totp"], strict);
  expect(body).toMatchObject({ enrolled: true, method: "totp", user: { mfa_enabled: true, mfa_methods: ["totp"] } });
  expect(body.recovery_codes).toHaveLength(10);
  return body;
}

beforeAll(async () => {
  // Every row sends codes from one address (loopback) within a minute or two, more than the
  // default 30 per 5 minutes; the per-address limit itself is tested in test/limits.
  const rateLimits = { sendsPerIp: 1000 };
  normal = await authFixture(ctx.server, { rateLimits });
  strict = await authFixture(ctx.server, { mfaRequired: true, rateLimits });
});

describe.each(METHODS)("sign-in by $name", (method) => {
  const f = method.factor;

  it(`without MFA: a new user gets tokens with amr ["${f}"]`, async () => {
    await expectTokens(await method.signUp(normal, fresh()), [f]);
  });

  it(`without MFA: an existing user gets tokens with amr ["${f}"]`, async () => {
    const who = fresh();
    const first = await expectTokens(await method.signUp(normal, who), [f]);
    const again = await expectTokens(await method.signIn(normal, who), [f]);
    expect(again.user.id).toBe(first.user.id);
  });

  it(`with TOTP enrolled: a totp challenge and no token; a TOTP code finishes it with amr ["${f}", "totp"]`, async () => {
    const who = fresh();
    const first = await expectTokens(await method.signUp(normal, who), [f]);
    const secret = await enroll(normal, first.access_token, "totp");
    const mfaToken = expectChallenge(await method.signIn(normal, who), ["totp"]);
    const done = await normal.call("POST", "/v1/auth/mfa/verify", { mfa_token: mfaToken, code: await totp(secret) });
    const body = await expectTokens(done, [f, "totp"]);
    expect(body.user).toMatchObject({ id: first.user.id, mfa_enabled: true, mfa_methods: ["totp"] });
  });

  it(`with SMS enrolled: an sms challenge, its code sent by SMS; the code finishes it with amr ["${f}", "sms"]`, async () => {
    const who = fresh();
    const factorPhone = fresh().phone;
    const first = await expectTokens(await method.signUp(normal, who), [f]);
    await enroll(normal, first.access_token, "sms", factorPhone);
    const next = nextSms(factorPhone);
    const mfaToken = expectChallenge(await method.signIn(normal, who), ["sms"]);
    const message = await ctx.sms.waitFor(factorPhone, next);
    expect(message.body).toMatch(/verification code for Auth test/);
    const code = CODE.exec(message.body)![1];
    const done = await normal.call("POST", "/v1/auth/mfa/verify", { mfa_token: mfaToken, code });
    const body = await expectTokens(done, [f, "sms"]);
    expect(body.user).toMatchObject({ id: first.user.id, mfa_methods: ["sms"] });
  });

  it("in an mfa_required project: a new user is created but held at an enrollment challenge, with no session until TOTP is enrolled", async () => {
    const who = fresh();
    const mfaToken = expectChallenge(await method.signUp(strict, who), []);
    const users = await strict.call("GET", "/v1/auth/users?limit=100");
    const held = users.body.data.find((u: any) =>
      method.name === "SMS code" ? u.phone === who.phone : u.email === who.email,
    );
    expect(held).toMatchObject({ mfa_enabled: false, mfa_methods: [] });
    expect(held).not.toHaveProperty("last_login_at");

    const body = await enrollThroughChallenge(mfaToken, f);
    expect(body.user.id).toBe(held.id);
    const sessions = await strict.call("GET", "/v1/auth/sessions", undefined, body.access_token);
    expect(sessions.body.data).toHaveLength(1);
    expect(sessions.body.data[0].is_current).toBe(true);
  });

  it("in an mfa_required project: an existing user without MFA gets the enrollment challenge; enrolling TOTP with its mfa_token signs in", async () => {
    const who = fresh();
    expectChallenge(await method.signUp(strict, who), []); // created, and left at the challenge
    const mfaToken = expectChallenge(await method.signIn(strict, who), []);
    const body = await enrollThroughChallenge(mfaToken, f);
    const sessions = await strict.call("GET", "/v1/auth/sessions", undefined, body.access_token);
    expect(sessions.body.data).toHaveLength(1);
  });
});

describe("a disabled user", () => {
  const disable = async (app: AuthFixture, id: string) =>
    expect((await app.call("PATCH", `/v1/auth/users/${id}`, { disabled: true })).status).toBe(200);
  const expectDisabled = (answer: HttpAnswer) =>
    expect({ status: answer.status, reason: answer.body.reason }).toEqual({ status: 403, reason: "USER_DISABLED" });

  it.each(METHODS)("is refused by $name with 403 USER_DISABLED", async (method) => {
    const who = fresh();
    const first = await expectTokens(await method.signUp(normal, who), [method.factor]);
    await disable(normal, first.user.id);
    expectDisabled(await method.signIn(normal, who));
  });

  it("is refused by VerifyMfa when disabled while held at the challenge, and the challenge gives no token", async () => {
    const who = fresh();
    const first = await expectTokens(await METHODS[0].signUp(normal, who), ["pwd"]);
    const secret = await enroll(normal, first.access_token, "totp");
    const mfaToken = expectChallenge(await METHODS[0].signIn(normal, who), ["totp"]);
    await disable(normal, first.user.id);
    expectDisabled(await normal.call("POST", "/v1/auth/mfa/verify", { mfa_token: mfaToken, code: await totp(secret) }));
    expect(await sql("SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL", [first.user.id])).toEqual([]);
  });

  it("is refused by VerifyMfa when disabled while enrolling through an enrollment challenge", async () => {
    const who = fresh();
    const mfaToken = expectChallenge(await METHODS[0].signUp(strict, who), []);
    const started = await strict.call("POST", "/v1/auth/mfa/enroll", { method: "totp", mfa_token: mfaToken });
    const secret = new URL(started.body.totp_uri).searchParams.get("secret")!;
    const [user] = await sql("SELECT id FROM users WHERE project_id = $1 AND email = $2", [
      strict.projectId,
      who.email,
    ]);
    await disable(strict, user.id);
    expectDisabled(await strict.call("POST", "/v1/auth/mfa/verify", { mfa_token: mfaToken, code: await totp(secret) }));
    expect(await sql("SELECT id FROM sessions WHERE user_id = $1", [user.id])).toEqual([]);
  });
});

describe("usage of sign-ins completed through MFA", () => {
  it.each(METHODS)(
    "a $name sign-in held at a challenge counts nothing, then counts once as a login under its first factor",
    async (method) => {
      const who = fresh();
      const first = await expectTokens(await method.signUp(normal, who), [method.factor]);
      const secret = await enroll(normal, first.access_token, "totp");
      const before = await usage(normal);
      const mfaToken = expectChallenge(await method.signIn(normal, who), ["totp"]);
      expect(await events(first.user.id)).toEqual([`signup/${method.usage}/1`]);
      expect(await usage(normal)).toEqual(before);
      await expectTokens(
        await normal.call("POST", "/v1/auth/mfa/verify", { mfa_token: mfaToken, code: await totp(secret) }),
        [method.factor, "totp"],
      );
      expect(await events(first.user.id)).toEqual([`signup/${method.usage}/1`, `login/${method.usage}/1`]);
      const passwordless = method.usage === "password" ? 0 : 1;
      expect(await usage(normal)).toEqual({
        ...before,
        totalLogins: before.totalLogins + 1,
        passwordlessLogins: before.passwordlessLogins + passwordless,
        tokensIssued: before.tokensIssued + 1,
      });
    },
  );

  it("a new user held at an enrollment challenge counts its signup with no token, then one login once enrolled", async () => {
    const who = fresh();
    const mfaToken = expectChallenge(await byMagicLink(strict, who), []);
    const [user] = await sql("SELECT id FROM users WHERE project_id = $1 AND email = $2", [
      strict.projectId,
      who.email,
    ]);
    expect(await events(user.id)).toEqual(["signup/magic_link/0"]);
    await enrollThroughChallenge(mfaToken, "magic_link");
    expect(await events(user.id)).toEqual(["signup/magic_link/0", "login/magic_link/1"]);
  });
});
