import { describe, expect, it } from "vitest";
import { hashToken, randomToken } from "../../src/crypto/tokens.js";
import { freshCode, parseTotpUri } from "../auth/mfa-helpers.js";
import { grpcCall, grpcClient } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import {
  bearer,
  expectMemberChallenge,
  expectReason,
  memberMfaKit,
  type MemberAccount,
} from "../helpers/member-mfa.js";

// An organization's require_member_mfa (issue 46): with it on, no member of the organization gets
// a management token for a password alone. Threats: a stolen member password opens the
// organization; a token issued before the rule outlives it; the admin who turns it on locks
// everyone out (the admin itself included); a member drops its last factor and signs in with a
// password again.

describe("an organization that requires a second factor of its members", () => {
  const ctx = useMessagingServer();
  const { clock, sql } = ctx;
  const kit = memberMfaKit(() => ctx.server, clock);

  /** An organization whose admin has TOTP and has turned require_member_mfa on. */
  async function requiring(): Promise<{
    admin: MemberAccount;
    adminToken: string;
    secret: string;
    dev: MemberAccount;
  }> {
    const admin = await kit.admin();
    const dev = await kit.developer(admin);
    const first = await kit.token(admin);
    const { secret } = await kit.enrollTotp(first);
    const adminToken = await kit.signIn(admin, secret);
    const res = await kit.call("PATCH", "/v1/account/organization", { require_member_mfa: true }, bearer(adminToken));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.organization).toMatchObject({ id: admin.organizationId, require_member_mfa: true });
    return { admin, adminToken, secret, dev };
  }

  it("a member without a second factor cannot get a management token with its password: Login answers an enrollment challenge, and its mfa_token manages nothing", async () => {
    const { dev } = await requiring();
    const res = await kit.login(dev);
    const mfaToken = expectMemberChallenge(res, []);
    expect(res.body.organization_id).toBeTruthy();
    expectReason(await kit.call("GET", "/v1/projects", undefined, bearer(mfaToken)), 401, "INVALID_MANAGEMENT_TOKEN");
    // An enrollment challenge takes no code for a factor the member does not have.
    expectReason(await kit.verify({ mfa_token: mfaToken, code: "123456" }), 400, "MFA_NOT_ENROLLED");
    expectReason(await kit.verify({ mfa_token: mfaToken, code: "abcde-fghjk" }), 400, "MFA_NOT_ENROLLED");
    // Over gRPC as well: no token.
    const client = grpcClient(ctx.server.port, "account");
    try {
      const viaGrpc = await grpcCall(client, "Login", { email: dev.email, password: dev.password });
      expect(viaGrpc.response).toMatchObject({ mfa_required: true, mfa_methods: [], management_token: "" });
    } finally {
      client.close();
    }
  });

  it("the enrollment challenge enrolls TOTP and finishes the sign-in with a token and recovery codes; the next sign-in asks for the code", async () => {
    const { dev } = await requiring();
    const mfaToken = expectMemberChallenge(await kit.login(dev), []);
    const start = await kit.call("POST", "/v1/account/mfa/enroll", { method: "totp", mfa_token: mfaToken });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const { secret } = parseTotpUri(start.body.totp_uri);
    const done = await kit.verify({ mfa_token: mfaToken, code: await freshCode(secret, clock) });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ enrolled: true, method: "totp" });
    expect(done.body.recovery_codes).toHaveLength(10);
    expect(await kit.works(done.body.management_token)).toBe(true);
    await kit.challenge(dev, ["totp"]);
  });

  it("turning it on revokes the organization's tokens issued for a password alone, not the caller's nor those issued after a second factor, nor another organization's", async () => {
    const admin = await kit.admin();
    const dev = await kit.developer(admin);
    const devToken = await kit.token(dev);
    const passwordOnly = await kit.token(admin);
    const { secret } = await kit.enrollTotp(passwordOnly);
    const twoFactors = await kit.signIn(admin, secret);
    // The admin now has TOTP: its password alone gives no token.
    expectMemberChallenge(await kit.login(admin), ["totp"]);
    const outsider = await kit.admin();
    const outsiderToken = await kit.token(outsider);

    const res = await kit.call("PATCH", "/v1/account/organization", { require_member_mfa: true }, bearer(passwordOnly));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.revoked_tokens).toBe(1);
    expect(await kit.works(devToken)).toBe(false);
    expect(await kit.works(passwordOnly)).toBe(true);
    expect(await kit.works(twoFactors)).toBe(true);
    expect(await kit.works(outsiderToken)).toBe(true);

    const events = await sql(
      `SELECT actor_id, details FROM audit_events WHERE organization_id = $1 AND type = 'organization.updated'`,
      [admin.organizationId],
    );
    expect(events).toEqual([
      {
        actor_id: admin.memberId,
        details: { fields: ["require_member_mfa"], require_member_mfa: true, revoked_tokens: 1 },
      },
    ]);
  });

  it("only an admin with a second factor of its own may turn it on: a developer is ROLE_REQUIRED, an admin without one MFA_NOT_ENROLLED", async () => {
    const admin = await kit.admin();
    const dev = await kit.developer(admin);
    expectReason(
      await kit.call("PATCH", "/v1/account/organization", { require_member_mfa: true }, bearer(await kit.token(dev))),
      403,
      "ROLE_REQUIRED",
    );
    const adminToken = await kit.token(admin);
    expectReason(
      await kit.call("PATCH", "/v1/account/organization", { require_member_mfa: true }, bearer(adminToken)),
      400,
      "MFA_NOT_ENROLLED",
    );
    const organization = await kit.call("GET", "/v1/account/organization", undefined, bearer(adminToken));
    expect(organization.body.organization).toMatchObject({ id: admin.organizationId, require_member_mfa: false });
    // Unchanged: no rule, so the developer still signs in with its password.
    await kit.token(dev);
  });

  it("the last factor cannot go while the organization requires one; once the rule is off it can", async () => {
    const { admin, adminToken, dev } = await requiring();
    const status = await kit.call("GET", "/v1/account/mfa", undefined, bearer(adminToken));
    expect(status.body).toMatchObject({ mfa_enabled: true, required_by_organization: true });
    expectReason(
      await kit.call("POST", "/v1/account/mfa/unenroll", { method: "totp" }, bearer(adminToken)),
      403,
      "MFA_REQUIRED_BY_ORGANIZATION",
    );
    const off = await kit.call("PATCH", "/v1/account/organization", { require_member_mfa: false }, bearer(adminToken));
    expect(off.body.organization.require_member_mfa).toBe(false);
    expect((await kit.call("POST", "/v1/account/mfa/unenroll", { method: "totp" }, bearer(adminToken))).status).toBe(
      200,
    );
    await kit.token(admin);
    await kit.token(dev);
  });

  it("the rule of one organization does not reach the identity's other organizations", async () => {
    const { dev } = await requiring();
    const elsewhere = await kit.admin();
    const identity = (await ctx.server.deps.db.repos.memberIdentities.findByEmail(dev.email))!;
    await ctx.server.deps.db.repos.members.create(elsewhere.organizationId, { identity, role: "developer" });
    await kit.token(dev, elsewhere.organizationId);
    expectMemberChallenge(await kit.login(dev, dev.organizationId), []);
  });

  it("AcceptInvitation into the organization answers the enrollment challenge: the membership is made, no token is issued", async () => {
    const { admin } = await requiring();
    const email = `invitee-${Date.now().toString(36)}@example.com`;
    const token = randomToken("ginv");
    await ctx.server.deps.db.repos.invitations.replacePending(admin.organizationId, {
      email,
      role: "developer",
      tokenHash: hashToken(token),
      invitedBy: admin.memberId,
      expiresAt: new Date(clock.now().getTime() + 3_600_000),
    });
    const res = await kit.call("POST", "/v1/account/invitations/accept", {
      token,
      password: "a fresh member password",
    });
    expectMemberChallenge(res, []);
    expect(res.body.email).toBe(email);
    expectMemberChallenge(await kit.login({ email, password: "a fresh member password" }), []);
  });

  it("ListMembers says which members have a second factor", async () => {
    const { admin, adminToken, dev } = await requiring();
    const list = await kit.call("GET", "/v1/members", undefined, bearer(adminToken));
    const byId = Object.fromEntries(list.body.data.map((m: any) => [m.id, m.mfa_enabled]));
    expect(byId).toEqual({ [admin.memberId]: true, [dev.memberId]: false });
  });
});
