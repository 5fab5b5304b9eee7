import { beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/crypto/tokens.js";
import { accountFixture, expectError, type AccountFixture } from "../helpers/account.js";
import { connectReason, grpcCall, grpcClient } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { bearer, linkToken, membersKit, PUBLIC_URL } from "../helpers/members.js";
import { seedOrganization } from "../helpers/seed.js";
import { eventually } from "../helpers/eventually.js";
import { injectConnect, injectHttp } from "../helpers/inject.js";

// Member passwords (issue 13). Threats: a stolen management token changes the password without
// knowing it; a token stolen before a change or a reset keeps working, in any organization the
// identity belongs to; a reset link works twice, after a newer one, or after its hour; the
// reset request tells whether an address belongs to a member; a weak password gets in.

const HOUR_MS = 3_600_000;
const ctx = useMessagingServer({ smtp: true, env: { PUBLIC_URL } });
const kit = membersKit(
  () => ctx.server,
  () => ctx.smtp,
);
let f: AccountFixture;
let counter = 0;
const newEmail = () => `pw-${Date.now().toString(36)}-${counter++}@example.com`;

beforeAll(async () => {
  f = await accountFixture(ctx.server);
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  injectHttp(ctx.server.handle, path, { headers, body });
const change = (token: string, current_password: string, new_password: string) =>
  post("/v1/account/password/change", { current_password, new_password }, bearer(token));
const requestReset = (email: string) => post("/v1/account/password/reset-request", { email });
const reset = (token: string, new_password: string) => post("/v1/account/password/reset", { token, new_password });

/** A person in two organizations (the fixture's and a fresh one), with one token in each and a second one in the fresh one. */
async function personInTwo() {
  const other = await seedOrganization(ctx.server.deps);
  const otherAdmin = bearer(await kit.token(other.email, other.password));
  const person = { email: newEmail(), password: "the original password" };
  const inF = (await kit.accept(await kit.invite(f.admin.headers, person.email), person.password)).body
    .management_token as string;
  const inOther = (await kit.accept(await kit.invite(otherAdmin, person.email), person.password)).body
    .management_token as string;
  const inOtherAgain = await kit.token(person.email, person.password, other.organization.id);
  return { ...person, other: other.organization, tokens: { inF, inOther, inOtherAgain } };
}

/** Requests a reset and answers the token of the link in the email that arrives. */
async function resetLink(email: string): Promise<string> {
  const before = kit.mails(email).length;
  expect((await requestReset(email)).status).toBe(200);
  return linkToken(await ctx.smtp.waitFor(email, { nth: before + 1 }), "member_password_reset");
}

describe("ChangeMemberPassword", () => {
  it("refusals: wrong current password (401 INVALID_CREDENTIALS), very common (400 WEAK_PASSWORD), too short (VALIDATION_FAILED); none changes anything", async () => {
    const p = await personInTwo();
    expectError(await change(p.tokens.inF, "not my password", "a brand new password"), 401, "INVALID_CREDENTIALS");
    expectError(await change(p.tokens.inF, p.password, "Password123"), 400, "WEAK_PASSWORD");
    const short = await change(p.tokens.inF, p.password, "short");
    expectError(short, 400, "VALIDATION_FAILED");
    expect(short.body.violations.map((v: { field: string }) => v.field)).toEqual(["new_password"]);
    expectError(
      await injectHttp(ctx.server.handle, "/v1/account/password/change", {
        body: { current_password: "x", new_password: "a brand new password" },
      }),
      401,
      "MISSING_MANAGEMENT_TOKEN",
    );
    expect((await kit.login(p.email, p.password)).status).toBe(200);
    for (const token of Object.values(p.tokens)) expect((await kit.listProjects(token)).status).toBe(200);
  });

  it("success: the calling token stays, every other token of the identity (this and the other organization) is revoked, the new password signs in and the old one does not", async () => {
    const p = await personInTwo();
    const answer = await change(p.tokens.inOther, p.password, "a brand new password");
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 200,
      body: { message: "Your password has been changed. Your other management tokens have been revoked." },
    });
    expect((await kit.listProjects(p.tokens.inOther)).status).toBe(200);
    expectError(await kit.listProjects(p.tokens.inOtherAgain), 401, "INVALID_MANAGEMENT_TOKEN");
    expectError(await kit.listProjects(p.tokens.inF), 401, "INVALID_MANAGEMENT_TOKEN");
    expectError(await kit.login(p.email, p.password), 401, "INVALID_CREDENTIALS");
    expect((await kit.token(p.email, "a brand new password", f.organization.id)).length).toBeGreaterThan(0);
    // Other members are untouched.
    expect((await kit.listProjects(f.admin.token)).status).toBe(200);
  });

  it("gRPC changes the password; Connect with the old one as current is INVALID_CREDENTIALS", async () => {
    const p = await personInTwo();
    const viaGrpc = await grpcCall(
      grpcClient(ctx.server.port, "account"),
      "ChangeMemberPassword",
      { current_password: p.password, new_password: "changed over grpc" },
      bearer(p.tokens.inF),
    );
    expect(viaGrpc.error).toBeUndefined();
    const viaConnect = await injectConnect(
      ctx.server.handle,
      "account",
      "ChangeMemberPassword",
      { currentPassword: p.password, newPassword: "and again" },
      bearer(p.tokens.inF),
    );
    expect({ status: viaConnect.status, reason: connectReason(viaConnect.body) }).toEqual({
      status: 401,
      reason: "INVALID_CREDENTIALS",
    });
  });
});

describe("member password reset", () => {
  it("the email arrives with a 1-hour link (only its hash stored); the reset works once, revokes every token of the identity, and the new password signs in", async () => {
    const p = await personInTwo();
    const before = kit.mails(p.email).length;
    const requested = await requestReset(p.email.toUpperCase());
    expect({ status: requested.status, body: requested.body }).toEqual({
      status: 200,
      body: { message: "If this email signs in to Gatehouse, a password reset link has been sent to it." },
    });
    const mail = await ctx.smtp.waitFor(p.email, { nth: before + 1 });
    expect(mail.subject).toBe("Reset your Gatehouse password");
    const token = linkToken(mail, "member_password_reset");
    expect(token).toMatch(/^gmpr_/);
    const [row] = await ctx.sql(
      "SELECT r.* FROM member_password_resets r JOIN member_identities i ON i.id = r.identity_id WHERE i.email_normalized = $1",
      [p.email],
    );
    expect(row.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBe(HOUR_MS);
    const sent = await eventually(
      "outbox row marked sent",
      async () => (await ctx.sql("SELECT * FROM outbox WHERE recipient = $1 AND sent_at IS NOT NULL", [p.email]))[0],
    );
    expect(sent.body_sealed).toBeNull();

    const done = await reset(token, "reset to something new");
    expect({ status: done.status, body: done.body }).toEqual({
      status: 200,
      body: { message: "Your password has been reset. Sign in with the new password." },
    });
    for (const t of Object.values(p.tokens)) expectError(await kit.listProjects(t), 401, "INVALID_MANAGEMENT_TOKEN");
    expectError(await reset(token, "reset to something newer"), 401, "INVALID_LINK");
    expectError(await kit.login(p.email, p.password), 401, "INVALID_CREDENTIALS");
    expect((await kit.login(p.email, "reset to something new")).body.organizations).toHaveLength(2);
  });

  it("an unknown address gets the identical answer and no email", async () => {
    const known = await requestReset(f.developer.email);
    // The request answers first and queues its mail after (detached): let that work end.
    await ctx.server.deps.detached.settle();
    const [{ n: before }] = await ctx.sql("SELECT count(*)::int AS n FROM outbox");
    const unknown = await requestReset(newEmail());
    await ctx.server.deps.detached.settle();
    const [{ n: after }] = await ctx.sql("SELECT count(*)::int AS n FROM outbox");
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: known.status, body: known.body });
    expect(after).toBe(before);
  });

  it("a newer request replaces the older link", async () => {
    const email = newEmail();
    await kit.accept(await kit.invite(f.admin.headers, email), "before the resets");
    const older = await resetLink(email);
    const newer = await resetLink(email);
    expectError(await reset(older, "from the older link"), 401, "INVALID_LINK");
    expect((await reset(newer, "from the newer link")).status).toBe(200);
  });

  it("the link expires after 1 hour on the service's clock; at 59 minutes it still works", async () => {
    const late = newEmail();
    const onTime = newEmail();
    await kit.accept(await kit.invite(f.admin.headers, late), "waiting too long");
    await kit.accept(await kit.invite(f.admin.headers, onTime), "just in time");
    const lateLink = await resetLink(late);
    const onTimeLink = await resetLink(onTime);
    ctx.clock.advance(59 * 60_000);
    expect((await reset(onTimeLink, "reset within the hour")).status).toBe(200);
    ctx.clock.advance(60_000 + 1000);
    expectError(await reset(lateLink, "reset after the hour"), 401, "INVALID_LINK");
    expect((await kit.login(late, "waiting too long")).status).toBe(200);
  });

  it("refusals: a very common password (WEAK_PASSWORD, the link stays usable), an unknown token (INVALID_LINK)", async () => {
    const email = newEmail();
    await kit.accept(await kit.invite(f.admin.headers, email), "strong enough already");
    const link = await resetLink(email);
    expectError(await reset(link, "iloveyou1"), 400, "WEAK_PASSWORD");
    expectError(await reset("gmpr_not-a-real-token", "a fine new password"), 401, "INVALID_LINK");
    expect((await reset(link, "a fine new password")).status).toBe(200);
  });

  it("gRPC requests the reset; Connect resets", async () => {
    const email = newEmail();
    await kit.accept(await kit.invite(f.admin.headers, email), "over other protocols");
    const grpc = grpcClient(ctx.server.port, "account");
    const before = kit.mails(email).length;
    const requested = await grpcCall(grpc, "RequestMemberPasswordReset", { email });
    expect(requested.response).toEqual({
      message: "If this email signs in to Gatehouse, a password reset link has been sent to it.",
    });
    const token = linkToken(await ctx.smtp.waitFor(email, { nth: before + 1 }), "member_password_reset");
    const viaConnect = await injectConnect(ctx.server.handle, "account", "ResetMemberPassword", {
      token,
      newPassword: "reset over connect",
    });
    expect(viaConnect.status).toBe(200);
    expect((await kit.login(email, "reset over connect")).status).toBe(200);
  });
});
