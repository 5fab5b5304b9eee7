import { describe, expect, it } from "vitest";
import { SYSTEM_ORIGIN } from "../../src/domain/audit.js";
import { inviteUser, USER_INVITATION_TTL_MS } from "../../src/flows/auth/users/invite-user.js";
import { connect, connectReason, http } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { seedApiKey } from "../helpers/seed.js";
import { authFixture, type AuthFixture } from "./helpers.js";

// InviteUser (issue 25, API.md section 7) and the invitation link ResetPassword takes. Threats:
// a link that works twice, after 7 days, after a newer invitation or after its user is gone;
// a re-invitation that takes over an account somebody already uses; the link's token kept in
// the clear; an invitation sending its token to a site the project did not name; an end user
// inviting people as the administrator.

const PASSWORD = "a sturdy passphrase 1";
const TOKEN = /[?&]token=(guin_[A-Za-z0-9_-]+)/;
let seq = 0;
const newEmail = (label = "invited") => `${label}-${Date.now().toString(36)}${(++seq).toString(36)}@example.com`;

describe("InviteUser", () => {
  const ctx = useMessagingServer({ smtp: true });
  const { sql, clock } = ctx;

  const project = async (): Promise<AuthFixture> => authFixture(ctx.server);
  const invite = (app: AuthFixture, body: Record<string, unknown>, bearer?: string) =>
    app.call("POST", "/v1/auth/users/invite", body, bearer);
  const accept = (app: AuthFixture, token: string, password = PASSWORD) =>
    app.call("POST", "/v1/auth/password/reset", { reset_token: token, new_password: password });
  const login = (app: AuthFixture, email: string, password = PASSWORD) =>
    app.call("POST", "/v1/auth/login", { email, password });

  /** The `nth` mail to `email`: its link as a URL, and the token in it. */
  async function invitationMail(email: string, nth = 1): Promise<{ link: URL; token: string; text: string }> {
    const mail = await ctx.smtp.waitFor(email, { nth });
    const link = new URL(/(http\S+type=invitation\S*)/.exec(mail.text)![1]);
    expect(mail.html).toContain(link.searchParams.get("token"));
    return { link, token: TOKEN.exec(mail.text)![1], text: mail.text };
  }

  it("mails a link to the hosted page; the link sets the password and verifies the email; then Login works", async () => {
    const app = await project();
    const email = newEmail();
    const before = clock.now().getTime();
    const res = await invite(app, { email, metadata: { team: "ops" }, app_metadata: { role: "admin" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      email,
      email_verified: false,
      metadata: { team: "ops" },
      app_metadata: { role: "admin" },
    });
    const expires = new Date(res.body.invitation_expires_at).getTime();
    expect(expires - before).toBeGreaterThanOrEqual(USER_INVITATION_TTL_MS);
    expect(expires - clock.now().getTime()).toBeLessThanOrEqual(USER_INVITATION_TTL_MS);

    const { link, token, text } = await invitationMail(email);
    const publicUrl = ctx.server.deps.config.publicUrl;
    expect(`${link.origin}${link.pathname}`).toBe(`${publicUrl}/v1/auth/${app.loginId}/reset-password`);
    expect(link.searchParams.get("type")).toBe("invitation");
    expect(link.searchParams.has("redirect_url")).toBe(false);
    expect(text).toMatch(/choose a password/i);
    // The hosted page the link opens exists.
    expect((await http(`${ctx.server.url}${link.pathname}${link.search}`)).status).toBe(200);

    // Kept as a hash only, valid 7 days.
    const rows = await sql(`SELECT token_hash, expires_at, created_at FROM user_tokens WHERE user_id = $1`, [
      res.body.id,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toContain(token);
    expect(new Date(rows[0].expires_at).getTime() - new Date(rows[0].created_at).getTime()).toBe(
      USER_INVITATION_TTL_MS,
    );

    // Before the link: no password to sign in with.
    expect((await login(app, email)).body.reason).toBe("INVALID_CREDENTIALS");

    const accepted = await accept(app, token);
    expect(accepted.status).toBe(200);
    expect(accepted.body.message).toMatch(/password has been set/i);
    const signedIn = await login(app, email);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ id: res.body.id, email_verified: true });
    expect((await app.call("GET", `/v1/auth/users/${res.body.id}`)).body.email_verified).toBe(true);

    // The link works once.
    const again = await accept(app, token, "another sturdy passphrase");
    expect([again.status, again.body.reason]).toEqual([401, "INVALID_LINK"]);
    expect((await login(app, email)).status).toBe(200);

    // The audit log: the key invited, the invited person set the password by the link.
    const [key] = await sql(`SELECT id FROM api_keys WHERE project_id = $1`, [app.projectId]);
    const audit = await sql(
      `SELECT type, actor_type, actor_id, details FROM audit_events WHERE user_id = $1 AND type IN ('user.invited', 'user.password.reset') ORDER BY created_at`,
      [res.body.id],
    );
    expect(audit).toEqual([
      { type: "user.invited", actor_type: "api_key", actor_id: key.id, details: { resent: false } },
      { type: "user.password.reset", actor_type: "user", actor_id: res.body.id, details: { link: "invitation" } },
    ]);
  });

  it("the link expires after 7 days", async () => {
    const app = await project();
    const early = newEmail("early");
    const late = newEmail("late");
    expect((await invite(app, { email: early })).status).toBe(200);
    expect((await invite(app, { email: late })).status).toBe(200);
    const earlyToken = (await invitationMail(early)).token;
    const lateToken = (await invitationMail(late)).token;

    clock.advance(USER_INVITATION_TTL_MS - 60_000);
    expect((await accept(app, earlyToken)).status).toBe(200);
    clock.advance(2 * 60_000);
    const expired = await accept(app, lateToken);
    expect([expired.status, expired.body.reason]).toEqual([401, "INVALID_LINK"]);
    expect((await login(app, late)).body.reason).toBe("INVALID_CREDENTIALS");
    expect((await login(app, early)).status).toBe(200);
  });

  it("inviting again replaces the link while the user has never signed in; after that it is EMAIL_EXISTS", async () => {
    const app = await project();
    const email = newEmail("again");
    const first = await invite(app, { email });
    const second = await invite(app, { email: email.toUpperCase(), metadata: { ignored: true } });
    expect(second.status).toBe(200);
    // The same user, as it is.
    expect(second.body).toMatchObject({ id: first.body.id, email, metadata: {} });
    expect(new Date(second.body.invitation_expires_at).getTime()).toBeGreaterThanOrEqual(
      new Date(first.body.invitation_expires_at).getTime(),
    );
    const old = (await invitationMail(email, 1)).token;
    const latest = (await invitationMail(email, 2)).token;
    expect(latest).not.toBe(old);
    const stale = await accept(app, old);
    expect([stale.status, stale.body.reason]).toEqual([401, "INVALID_LINK"]);
    expect((await accept(app, latest)).status).toBe(200);
    const audit = await sql(
      `SELECT details FROM audit_events WHERE user_id = $1 AND type = 'user.invited' ORDER BY created_at`,
      [first.body.id],
    );
    expect(audit.map((r: any) => r.details)).toEqual([{ resent: false }, { resent: true }]);

    // Now the user has a password: no more invitations.
    const taken = await invite(app, { email });
    expect([taken.status, taken.body.reason]).toEqual([409, "EMAIL_EXISTS"]);

    // A user who signed up (a password, a sign-in) is EMAIL_EXISTS too, and gets no mail.
    const signedUp = await app.signup(newEmail("signedup"));
    const refused = await invite(app, { email: signedUp.email });
    expect([refused.status, refused.body.reason]).toEqual([409, "EMAIL_EXISTS"]);
    expect(await sql(`SELECT 1 FROM outbox WHERE recipient = $1`, [signedUp.email])).toEqual([]);
    expect((await login(app, signedUp.email, signedUp.password)).status).toBe(200);
  });

  it("a user the administrator made without a password, never signed in, may be invited; one who has signed in may not", async () => {
    const app = await project();
    const email = newEmail("made");
    const made = await app.call("POST", "/v1/auth/users", { email });
    expect(made.status).toBe(200);
    const invited = await invite(app, { email });
    expect(invited.status).toBe(200);
    expect(invited.body.id).toBe(made.body.id);

    // A passwordless user who has signed in (by an email code here) is somebody's account now.
    const otpUser = newEmail("otp");
    expect((await app.call("POST", "/v1/auth/users", { email: otpUser })).status).toBe(200);
    expect((await app.call("POST", "/v1/auth/otp/send", { email: otpUser, channel: "email" })).status).toBe(200);
    const code = /\b(\d{6})\b/.exec((await ctx.smtp.waitFor(otpUser)).text)![1];
    const verified = await app.call("POST", "/v1/auth/otp/verify", { email: otpUser, otp: code });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const refused = await invite(app, { email: otpUser });
    expect([refused.status, refused.body.reason]).toEqual([409, "EMAIL_EXISTS"]);
  });

  it("DeleteUser withdraws the invitation: the link fails", async () => {
    const app = await project();
    const email = newEmail("deleted");
    const res = await invite(app, { email });
    const { token } = await invitationMail(email);
    expect((await app.call("DELETE", `/v1/auth/users/${res.body.id}`)).status).toBe(200);
    expect(await sql(`SELECT 1 FROM user_tokens WHERE user_id = $1`, [res.body.id])).toEqual([]);
    const refused = await accept(app, token);
    expect([refused.status, refused.body.reason]).toEqual([401, "INVALID_LINK"]);
    expect((await login(app, email)).body.reason).toBe("INVALID_CREDENTIALS");
  });

  it("a password set by a reset link withdraws the invitation link", async () => {
    const app = await project();
    const email = newEmail("reset");
    expect((await invite(app, { email })).status).toBe(200);
    const invitation = (await invitationMail(email)).token;
    expect((await app.call("POST", "/v1/auth/password/reset-request", { email })).status).toBe(200);
    const reset = /[?&]token=(gpr_[A-Za-z0-9_-]+)/.exec((await ctx.smtp.waitFor(email, { nth: 2 })).text)![1];
    expect((await accept(app, reset)).status).toBe(200);
    const refused = await accept(app, invitation, "another sturdy passphrase");
    expect([refused.status, refused.body.reason]).toEqual([401, "INVALID_LINK"]);
    expect((await login(app, email)).status).toBe(200);
  });

  it("redirect_url follows Signup's rules: another site is 400 REDIRECT_NOT_ALLOWED and nothing is made; an allowed one rides on the link", async () => {
    const app = await project();
    const email = newEmail("redirect");
    const refused = await invite(app, { email, redirect_url: "https://evil.example.net/welcome" });
    expect([refused.status, refused.body.reason]).toEqual([400, "REDIRECT_NOT_ALLOWED"]);
    expect(await sql(`SELECT 1 FROM users WHERE project_id = $1 AND email = $2`, [app.projectId, email])).toEqual([]);

    const welcome = "https://app.example.com/welcome?from=invite";
    expect((await invite(app, { email, redirect_url: welcome })).status).toBe(200);
    const { link } = await invitationMail(email);
    expect(link.searchParams.get("redirect_url")).toBe(welcome);
    // The page server takes it (it checks the destination again before the page exists).
    expect((await http(`${ctx.server.url}${link.pathname}${link.search}`)).status).toBe(200);

    // One of the project's hosted pages is allowed too; the page ends at sign-in then.
    const other = newEmail("hosted");
    const hosted = `${ctx.server.deps.config.publicUrl}/v1/auth/${app.loginId}/login`;
    expect((await invite(app, { email: other, redirect_url: hosted })).status).toBe(200);
    expect((await invitationMail(other)).link.searchParams.has("redirect_url")).toBe(false);
  });

  it("admin only: a user token is 403 ADMIN_REQUIRED, a publishable key 403 SCOPE_REQUIRED; signup settings do not apply", async () => {
    const app = await project();
    const { body } = await app.signup(newEmail("caller"));
    const email = newEmail("by-user");
    const asUser = await invite(app, { email }, body.access_token);
    expect([asUser.status, asUser.body.reason]).toEqual([403, "ADMIN_REQUIRED"]);
    const projectRow = (await ctx.server.deps.db.repos.projects.getByLoginId(app.loginId))!;
    const publishable = await seedApiKey(ctx.server.deps, projectRow, {
      kind: "publishable",
      scopes: ["auth:read", "auth:write"],
    });
    const withPublishable = await app.call("POST", "/v1/auth/users/invite", { email }, undefined, {
      "x-service-key": publishable.key,
    });
    expect([withPublishable.status, withPublishable.body.reason]).toEqual([403, "SCOPE_REQUIRED"]);
    expect(await sql(`SELECT 1 FROM users WHERE project_id = $1 AND email = $2`, [app.projectId, email])).toEqual([]);
    await expect(
      inviteUser(ctx.server.deps, projectRow, { kind: "user", userId: body.user.id }, { email }, SYSTEM_ORIGIN),
    ).rejects.toMatchObject({ reason: "ADMIN_REQUIRED" });

    const patched = await http(`${ctx.server.url}/v1/projects/${app.projectId}`, {
      method: "PATCH",
      headers: await app.admin(),
      body: { signups: "closed" },
    });
    expect(patched.status).toBe(200);
    expect((await invite(app, { email })).status).toBe(200);
    expect((await accept(app, (await invitationMail(email)).token)).status).toBe(200);
    expect((await login(app, email)).status).toBe(200);
  });

  it("parallel invitations of one new address make one user, and only the last link works; racing uses of a link: one wins", async () => {
    const app = await project();
    const email = newEmail("race");
    const answers = await Promise.all([invite(app, { email }), invite(app, { email })]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[0].body.id).toBe(answers[1].body.id);
    expect(await sql(`SELECT 1 FROM users WHERE project_id = $1 AND email = $2`, [app.projectId, email])).toHaveLength(
      1,
    );
    const live = await sql(`SELECT 1 FROM user_tokens WHERE user_id = $1 AND consumed_at IS NULL`, [
      answers[0].body.id,
    ]);
    expect(live).toHaveLength(1);

    const other = newEmail("race-use");
    expect((await invite(app, { email: other })).status).toBe(200);
    const { token } = await invitationMail(other);
    const uses = await Promise.all([accept(app, token, "first sturdy passphrase"), accept(app, token, PASSWORD)]);
    expect(uses.map((u) => u.status).sort()).toEqual([200, 401]);
  });

  it("answers on the wire: REST and Connect, with invitation_expires_at", async () => {
    const app = await project();
    const email = newEmail("wire");
    const rest = await http(`${ctx.server.url}/v1/auth/users/invite`, {
      headers: { "x-service-key": app.key },
      body: { email },
    });
    expect(rest.status).toBe(200);
    expect(rest.body.invitation_expires_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const again = await connect(ctx.server.url, "auth", "InviteUser", { email }, { "x-service-key": app.key });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: rest.body.id, email });
    expect(again.body.invitation_expires_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const bad = await connect(
      ctx.server.url,
      "auth",
      "InviteUser",
      { email: newEmail("wire-bad"), redirectUrl: "https://evil.example.net/" },
      { "x-service-key": app.key },
    );
    expect([bad.status, connectReason(bad.body)]).toEqual([400, "REDIRECT_NOT_ALLOWED"]);
  });
});
