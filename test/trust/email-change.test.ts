import { beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/crypto/tokens.js";
import { grpcCall, grpcClient } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { injectConnect } from "../helpers/inject.js";

// Threat: an account taken over through its email address. With a stolen access token, a thief
// changed the user's email to an address of its own (at once, and only that address heard of
// it), asked for a password reset there, and owned the account. Now a user's own change waits
// until the new address confirms it through a single-use link; the current address keeps
// signing in meanwhile and is told, and the password reset it is told to do withdraws the
// change. An admin (API key, no user token) still changes an address at once.

const HOUR_MS = 3_600_000;
const CHANGE_LINK = /https:\/\/app\.example\.com\/callback\?token=(gec_[A-Za-z0-9_-]+)&type=email_change/;
const VERIFY_LINK = /https:\/\/app\.example\.com\/callback\?token=(gev_[A-Za-z0-9_-]+)&type=email_verification/;
const RESET_LINK = /https:\/\/app\.example\.com\/callback\?token=(gpr_[A-Za-z0-9_-]+)&type=password_reset/;
let seq = 0;
const address = (tag: string) => `${tag}-${++seq}-${Date.now()}@example.com`;

describe("a user's own email change is confirmed by the new address", () => {
  const ctx = useMessagingServer({ smtp: true });
  let app: AuthFixture;
  beforeAll(async () => {
    app = await authFixture(ctx.server);
  });

  const change = (id: string, email: string, bearer?: string) =>
    app.call("PATCH", `/v1/auth/users/${id}`, { email }, bearer);
  const getUser = async (id: string) => (await app.call("GET", `/v1/auth/users/${id}`)).body;
  const login = (email: string, password: string) => app.call("POST", "/v1/auth/login", { email, password });
  const confirm = (token: string) => app.call("POST", "/v1/auth/email/verify", { token });
  const outbox = async (to: string) =>
    (await ctx.sql(`SELECT subject FROM outbox WHERE recipient = $1 ORDER BY created_at`, [to])) as Array<{
      subject: string;
    }>;
  const tokenIn = async (to: string, link: RegExp, nth = 1) => {
    const mail = await ctx.smtp.waitFor(to, { nth });
    const token = link.exec(mail.text)?.[1];
    expect(token, mail.text).toBeTruthy();
    return { mail, token: token! };
  };

  it("waits for the new address: the old one keeps signing in and is told, the new one gets a link, and the thief's password reset goes nowhere", async () => {
    const old = address("owner");
    const me = await app.signup(old);
    const id = me.body.user.id;
    const thief = address("thief");

    const asked = await change(id, thief, me.body.access_token);
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ id, email: old, new_email: thief, email_verified: false });
    expect(await getUser(id)).toMatchObject({ email: old, new_email: thief });

    // The new address gets the link; the current one a notice without any link.
    const { mail: toNew } = await tokenIn(thief, CHANGE_LINK);
    expect(toNew.subject).toMatch(/confirm/i);
    const notice = await ctx.smtp.waitFor(old);
    expect(notice.text).toContain(thief);
    expect(notice.text).toMatch(/reset your password/i);
    expect(notice.text).not.toMatch(/https?:\/\//);
    expect(notice.html).not.toMatch(/href=/);

    // Until the link is used the account is the old address's: sign-in, token claim, reset.
    expect((await login(old, me.password)).status).toBe(200);
    const byNew = await login(thief, me.password);
    expect(byNew.status).toBe(401);
    expect(byNew.body.reason).toBe("INVALID_CREDENTIALS");
    const refreshed = await app.call("POST", "/v1/auth/token/refresh", { refresh_token: me.body.refresh_token });
    expect(
      (await app.call("POST", "/v1/auth/token/verify", { token: refreshed.body.access_token })).body.claims.email,
    ).toBe(old);
    expect((await app.call("POST", "/v1/auth/password/reset-request", { email: thief })).status).toBe(200);
    expect((await outbox(thief)).length).toBe(1); // the confirmation link only, no reset link
  });

  it("the link switches the address (verified); from then on the new address signs in and the old one does not", async () => {
    const old = address("before");
    const me = await app.signup(old);
    const id = me.body.user.id;
    const next = address("after");
    await change(id, next, me.body.access_token);
    const { token } = await tokenIn(next, CHANGE_LINK);

    // Single-use, stored only as its hash, bound to the pending address.
    const rows = await ctx.sql(
      `SELECT token_hash, email, expires_at FROM user_tokens WHERE user_id = $1 AND kind = 'email_change'`,
      [id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(hashToken(token));
    expect(rows[0].email).toBe(next);
    expect(JSON.stringify(await ctx.sql(`SELECT * FROM user_tokens WHERE user_id = $1`, [id]))).not.toContain(token);

    const done = await confirm(token);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id, email: next, email_verified: true, new_email: "" });
    expect(await getUser(id)).toMatchObject({ email: next, email_verified: true, new_email: "" });
    expect((await login(next, me.password)).status).toBe(200);
    expect((await login(old, me.password)).body.reason).toBe("INVALID_CREDENTIALS");

    const again = await confirm(token);
    expect(again.status).toBe(401);
    expect(again.body.reason).toBe("INVALID_LINK");
  });

  it("of ten concurrent uses of one link exactly one wins", async () => {
    const me = await app.signup(address("race"));
    const next = address("raced");
    await change(me.body.user.id, next, me.body.access_token);
    const { token } = await tokenIn(next, CHANGE_LINK);
    const answers = await Promise.all(Array.from({ length: 10 }, () => confirm(token)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 401 && a.body.reason === "INVALID_LINK")).toHaveLength(9);
  });

  it("the link lasts 24 hours, and new_email goes with it; a new request replaces the pending change and its link", async () => {
    const me = await app.signup(address("slow"));
    const id = me.body.user.id;
    const first = address("first");
    await change(id, first, me.body.access_token);
    const { token: late } = await tokenIn(first, CHANGE_LINK);
    ctx.clock.advance(24 * HOUR_MS + 1000);
    expect((await getUser(id)).new_email).toBe("");
    const expired = await confirm(late);
    expect(expired.status).toBe(401);
    expect(expired.body.reason).toBe("INVALID_LINK");

    // (The signup's access token has expired by now: the user signs in again.)
    const signedIn = (await login(me.email, me.password)).body.access_token;
    const second = address("second");
    const third = address("third");
    expect((await change(id, second, signedIn)).body.new_email).toBe(second);
    const { token: replaced } = await tokenIn(second, CHANGE_LINK);
    ctx.clock.advance(23 * HOUR_MS);
    const again = await change(id, third, (await login(me.email, me.password)).body.access_token);
    expect(again.body.new_email).toBe(third);
    const { token: current } = await tokenIn(third, CHANGE_LINK);
    expect((await confirm(replaced)).body.reason).toBe("INVALID_LINK");
    // The replacement runs 24 hours from its own request.
    ctx.clock.advance(23 * HOUR_MS);
    const done = await confirm(current);
    expect(done.status).toBe(200);
    expect(done.body.email).toBe(third);
  });

  it("asking for the current address withdraws a pending change; the withdrawn link no longer works", async () => {
    const old = address("stay");
    const me = await app.signup(old);
    const id = me.body.user.id;
    const next = address("never");
    await change(id, next, me.body.access_token);
    const { token } = await tokenIn(next, CHANGE_LINK);
    const back = await change(id, old.toUpperCase(), me.body.access_token);
    expect(back.status).toBe(200);
    expect(back.body.new_email).toBe("");
    expect((await confirm(token)).body.reason).toBe("INVALID_LINK");
    expect((await getUser(id)).email.toLowerCase()).toBe(old.toLowerCase());
  });

  it("an address another user signs in with is EMAIL_EXISTS when asked for, and again when confirmed if it was taken meanwhile", async () => {
    const me = await app.signup(address("mine"));
    const other = await app.signup(address("theirs"));
    const taken = await change(me.body.user.id, other.email.toUpperCase(), me.body.access_token);
    expect(taken.status).toBe(409);
    expect(taken.body.reason).toBe("EMAIL_EXISTS");
    expect((await getUser(me.body.user.id)).new_email).toBe("");
    expect(await outbox(other.email)).toHaveLength(0);

    // Race: the address is free when asked for, then someone signs up with it.
    const contested = address("contested");
    await change(me.body.user.id, contested, me.body.access_token);
    const { token } = await tokenIn(contested, CHANGE_LINK);
    await app.signup(contested);
    const late = await confirm(token);
    expect(late.status).toBe(409);
    expect(late.body.reason).toBe("EMAIL_EXISTS");
    expect(await getUser(me.body.user.id)).toMatchObject({ email: me.email, new_email: contested });
  });

  it("an admin's change takes effect at once, unverified, with a verification link, and overrides a pending change", async () => {
    const me = await app.signup(address("managed"));
    const id = me.body.user.id;
    const wanted = address("wanted");
    await change(id, wanted, me.body.access_token);
    const { token } = await tokenIn(wanted, CHANGE_LINK);

    const set = address("set");
    const admin = await change(id, set);
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({ email: set, email_verified: false, new_email: "" });
    const { token: verification } = await tokenIn(set, VERIFY_LINK);
    expect((await login(set, me.password)).status).toBe(200);
    expect((await confirm(token)).body.reason).toBe("INVALID_LINK");
    expect((await confirm(verification)).body).toMatchObject({ email: set, email_verified: true });
  });

  it("a completed password reset marks the address verified and withdraws a pending change", async () => {
    const old = address("reset");
    const me = await app.signup(old);
    const id = me.body.user.id;
    expect((await getUser(id)).email_verified).toBe(false);
    const thief = address("taker");
    await change(id, thief, me.body.access_token);
    const { token: stolen } = await tokenIn(thief, CHANGE_LINK);
    await ctx.smtp.waitFor(old); // the notice

    await app.call("POST", "/v1/auth/password/reset-request", { email: old });
    const { token: reset } = await tokenIn(old, RESET_LINK, 2);
    const done = await app.call("POST", "/v1/auth/password/reset", {
      reset_token: reset,
      new_password: "a brand new passphrase",
    });
    expect(done.status).toBe(200);
    expect(await getUser(id)).toMatchObject({ email: old, email_verified: true, new_email: "" });
    expect((await confirm(stolen)).body.reason).toBe("INVALID_LINK");
    expect((await login(old, "a brand new passphrase")).status).toBe(200);
  });

  it("Connect and gRPC show new_email and confirm the change the same way", async () => {
    const me = await app.signup(address("wire"));
    const id = me.body.user.id;
    const next = address("wired");
    const headers = { "x-service-key": app.key, authorization: `Bearer ${me.body.access_token}` };
    const asked = await injectConnect(ctx.server.handle, "auth", "UpdateUser", { id, email: next }, headers);
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ email: me.email, new_email: next });
    const read = await grpcCall(grpcClient(ctx.server.port, "auth"), "GetUser", { id }, { "x-service-key": app.key });
    expect(read.response).toMatchObject({ email: me.email, new_email: next });
    const { token } = await tokenIn(next, CHANGE_LINK);
    const done = await grpcCall(
      grpcClient(ctx.server.port, "auth"),
      "VerifyEmail",
      { token },
      { "x-service-key": app.key },
    );
    expect(done.error).toBeUndefined();
    expect(done.response).toMatchObject({ email: next, email_verified: true, new_email: "" });
  });
});
