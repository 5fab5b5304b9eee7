import { beforeAll, describe, expect, it } from "vitest";
import { completionSteps } from "./completion-helpers.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { useSsoWorld, type CallbackAnswer } from "./sso-helpers.js";

// Threat: an SSO sign-in handing out a session on its own, past the user's MFA, past the
// project's mfa_required, or to a disabled account. SSO is the fifth row of the completion
// table (test/auth/sign-in-completion.test.ts holds the other four; SSO answers in a redirect
// fragment and needs the provider's world, so its rows live here): each MFA state ends in
// tokens whose amr lists every factor proven, or in a challenge with no token at all.

const world = useSsoWorld({ sms: true });
const { ctx } = world;
const { sql } = ctx;
const { nextSms, totp, enroll, events, usage } = completionSteps(ctx);
/** A project without mfa_required, and one with it, each with a connection to the provider. */
let normal: AuthFixture;
let strict: AuthFixture;
const connections = new Map<AuthFixture, string>();
let seq = 0;

/** A new provider account (verified email) per cell, and a phone for an SMS factor. */
function fresh(): { id: string; email: string; phone: string } {
  const n = ++seq;
  const who = {
    id: `completion-${n}`,
    email: `sso-cell-${n}@example.com`,
    phone: `+1556${String(n).padStart(7, "0")}`,
  };
  world.idp.setAccount(who.id, { email: who.email, email_verified: true });
  return who;
}

const ssoSignIn = (app: AuthFixture, accountId: string) => world.signIn(app, connections.get(app)!, accountId);

/** Tokens in the fragment and nothing else; the access token verifies with exactly this amr. */
async function expectTokens(answer: CallbackAnswer, amr: string[], app = normal) {
  expect(answer.status, answer.body).toBe(302);
  expect([...answer.fragment.keys()].sort(), answer.location).toEqual([
    "access_token",
    "expires_in",
    "refresh_token",
    "token_type",
  ]);
  expect(answer.fragment.get("token_type")).toBe("Bearer");
  const verified = await app.call("POST", "/v1/auth/token/verify", { token: answer.fragment.get("access_token") });
  expect(verified.body.valid).toBe(true);
  expect(verified.body.claims.amr).toEqual(amr);
  return { userId: verified.body.claims.sub as string, accessToken: answer.fragment.get("access_token")! };
}

/** A challenge in the fragment and nothing else: no access token, no refresh token. */
function expectChallenge(answer: CallbackAnswer, methods: string[]): string {
  expect(answer.status, answer.body).toBe(302);
  expect([...answer.fragment.keys()].sort(), answer.location).toEqual([
    "expires_in",
    "mfa_methods",
    "mfa_required",
    "mfa_token",
  ]);
  expect(Object.fromEntries(answer.fragment)).toEqual({
    mfa_required: "true",
    mfa_token: expect.stringMatching(/^gmfa_/),
    mfa_methods: methods.join(","),
    expires_in: "300",
  });
  return answer.fragment.get("mfa_token")!;
}

beforeAll(async () => {
  normal = await authFixture(ctx.server);
  strict = await authFixture(ctx.server, { mfaRequired: true });
  for (const app of [normal, strict]) connections.set(app, await world.connect(app));
});

describe("sign-in by SSO", () => {
  it('without MFA: a new user gets tokens with amr ["sso"], and so does the same user again', async () => {
    const who = fresh();
    const first = await expectTokens(await ssoSignIn(normal, who.id), ["sso"]);
    const again = await expectTokens(await ssoSignIn(normal, who.id), ["sso"]);
    expect(again.userId).toBe(first.userId);
  });

  it('with TOTP enrolled: a totp challenge and no token; a TOTP code finishes it with amr ["sso", "totp"]', async () => {
    const who = fresh();
    const first = await expectTokens(await ssoSignIn(normal, who.id), ["sso"]);
    const secret = await enroll(normal, first.accessToken, "totp");
    const mfaToken = expectChallenge(await ssoSignIn(normal, who.id), ["totp"]);
    const done = await normal.call("POST", "/v1/auth/mfa/verify", { mfa_token: mfaToken, code: await totp(secret) });
    expect(done.body.user).toMatchObject({ id: first.userId, mfa_enabled: true, mfa_methods: ["totp"] });
    expect(
      (await normal.call("POST", "/v1/auth/token/verify", { token: done.body.access_token })).body.claims.amr,
    ).toEqual(["sso", "totp"]);
  });

  it('with SMS enrolled: an sms challenge, its code sent by SMS; the code finishes it with amr ["sso", "sms"]', async () => {
    const who = fresh();
    const first = await expectTokens(await ssoSignIn(normal, who.id), ["sso"]);
    await enroll(normal, first.accessToken, "sms", who.phone);
    const next = nextSms(who.phone);
    const mfaToken = expectChallenge(await ssoSignIn(normal, who.id), ["sms"]);
    const code = /\b(\d{6})\b/.exec((await ctx.sms.waitFor(who.phone, next)).body)![1];
    const done = await normal.call("POST", "/v1/auth/mfa/verify", { mfa_token: mfaToken, code });
    expect(done.body.user).toMatchObject({ id: first.userId, mfa_methods: ["sms"] });
    expect(
      (await normal.call("POST", "/v1/auth/token/verify", { token: done.body.access_token })).body.claims.amr,
    ).toEqual(["sso", "sms"]);
  });

  it("in an mfa_required project: a new user is created but held at an enrollment challenge (mfa_methods empty); enrolling TOTP with its mfa_token signs in", async () => {
    const who = fresh();
    const mfaToken = expectChallenge(await ssoSignIn(strict, who.id), []);
    const held = (await strict.call("GET", `/v1/auth/users?search=${encodeURIComponent(who.email)}`)).body.data;
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ email_verified: true, mfa_enabled: false, mfa_methods: [] });
    expect(held[0]).not.toHaveProperty("last_login_at");

    const started = await strict.call("POST", "/v1/auth/mfa/enroll", { method: "totp", mfa_token: mfaToken });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const secret = new URL(started.body.totp_uri).searchParams.get("secret")!;
    const done = await strict.call("POST", "/v1/auth/mfa/verify", { mfa_token: mfaToken, code: await totp(secret) });
    expect(done.body).toMatchObject({
      enrolled: true,
      method: "totp",
      user: { id: held[0].id, mfa_methods: ["totp"] },
    });
    expect(done.body.recovery_codes).toHaveLength(10);
    expect(
      (await strict.call("POST", "/v1/auth/token/verify", { token: done.body.access_token })).body.claims.amr,
    ).toEqual(["sso", "totp"]);
    expect((await strict.call("GET", "/v1/auth/sessions", undefined, done.body.access_token)).body.data).toHaveLength(
      1,
    );
  });

  it("in an mfa_required project: an existing user without MFA gets the enrollment challenge again, never tokens", async () => {
    const who = fresh();
    expectChallenge(await ssoSignIn(strict, who.id), []);
    expectChallenge(await ssoSignIn(strict, who.id), []);
    expect(
      await sql(
        "SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.project_id = $1 AND u.email = $2",
        [strict.projectId, who.email],
      ),
    ).toEqual([]);
  });
});

describe("a disabled user", () => {
  it("is sent back with #error=user_disabled and no token or session", async () => {
    const who = fresh();
    const first = await expectTokens(await ssoSignIn(normal, who.id), ["sso"]);
    expect((await normal.call("PATCH", `/v1/auth/users/${first.userId}`, { disabled: true })).status).toBe(200);
    const answer = await ssoSignIn(normal, who.id);
    expect(answer.location).toMatch(/^https:\/\/app\.example\.com\/callback#error=user_disabled&error_description=/);
    expect([...answer.fragment.keys()].sort()).toEqual(["error", "error_description"]);
    expect(await sql("SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL", [first.userId])).toEqual([]);
  });

  it("is not linked or changed by the refused sign-in: an unverified password account keeps its password and gets no identity", async () => {
    const who = fresh();
    const signup = await normal.call("POST", "/v1/auth/signup", {
      email: who.email,
      password: "a sturdy passphrase 1",
    });
    expect(signup.body.user.email_verified).toBe(false);
    expect((await normal.call("PATCH", `/v1/auth/users/${signup.body.user.id}`, { disabled: true })).status).toBe(200);
    expect((await ssoSignIn(normal, who.id)).fragment.get("error")).toBe("user_disabled");
    expect((await normal.call("GET", `/v1/auth/users/${signup.body.user.id}`)).body).toMatchObject({
      email_verified: false,
      identities: [],
    });
    const [row] = await sql("SELECT password_hash FROM users WHERE id = $1", [signup.body.user.id]);
    expect(row.password_hash).toEqual(expect.any(String));
  });
});

describe("usage of SSO sign-ins", () => {
  it("a sign-in held at a challenge counts nothing, then counts once as an SSO login", async () => {
    const who = fresh();
    const first = await expectTokens(await ssoSignIn(normal, who.id), ["sso"]);
    const secret = await enroll(normal, first.accessToken, "totp");
    const before = await usage(normal);
    const mfaToken = expectChallenge(await ssoSignIn(normal, who.id), ["totp"]);
    expect(await events(first.userId)).toEqual(["signup/sso/1"]);
    expect(await usage(normal)).toEqual(before);
    expect(
      (await normal.call("POST", "/v1/auth/mfa/verify", { mfa_token: mfaToken, code: await totp(secret) })).status,
    ).toBe(200);
    expect(await events(first.userId)).toEqual(["signup/sso/1", "login/sso/1"]);
    expect(await usage(normal)).toEqual({
      ...before,
      totalLogins: before.totalLogins + 1,
      ssoLogins: before.ssoLogins + 1,
      tokensIssued: before.tokensIssued + 1,
    });
  });
});
