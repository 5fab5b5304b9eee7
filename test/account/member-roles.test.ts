import { beforeAll, describe, expect, it } from "vitest";
import { updateMember } from "../../src/flows/members/update-member.js";
import { SYSTEM_ORIGIN } from "../../src/domain/audit.js";
import { DomainError } from "../../src/domain/errors.js";
import { accountFixture, expectError, type AccountFixture } from "../helpers/account.js";
import { grpcCall, grpcClient, http } from "../helpers/clients.js";
import { injectConnect, injectHttp } from "../helpers/inject.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { bearer, membersKit, PUBLIC_URL } from "../helpers/members.js";
import { seedMember, seedOrganization } from "../helpers/seed.js";

// Role changes, pending invitations and "who am I" on the Account interface (issue 46: the
// console lists invitations beside the members and changes roles). Threats: a developer
// promotes itself; an organization is left without an admin, even by two admins demoting each
// other at once; a demoted admin's token keeps acting as one; an admin changes or lists
// another organization's members or invitations; the list of invitations shows their links.

const DAY_MS = 24 * 60 * 60 * 1000;
const ctx = useMessagingServer({ smtp: true, env: { PUBLIC_URL } });
const kit = membersKit(
  () => ctx.server,
  () => ctx.smtp,
);
let f: AccountFixture;
let counter = 0;
const newEmail = () => `role-${Date.now().toString(36)}-${counter++}@example.com`;

beforeAll(async () => {
  f = await accountFixture(ctx.server);
});

const rest = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  injectHttp(ctx.server.handle, path, { method, headers, body });
const setRole = (headers: Record<string, string>, id: string, role: unknown) =>
  rest("PATCH", `/v1/members/${id}`, headers, { role });
const roleEvents = (organizationId: string, targetId: string) =>
  ctx.sql(
    "SELECT actor_type, actor_id, details FROM audit_events WHERE organization_id = $1 AND target_id = $2 AND type = 'member.role_changed' ORDER BY created_at",
    [organizationId, targetId],
  );

/** A fresh organization: its admin signed in, and a developer signed in. */
async function team() {
  const org = await seedOrganization(ctx.server.deps);
  const developer = await seedMember(ctx.server.deps, org.organization, "developer");
  return {
    ...org,
    admin: { id: org.admin.id, headers: bearer(await kit.token(org.email, org.password)) },
    developer: { ...developer, headers: bearer(await kit.token(developer.email, developer.password)) },
  };
}

describe("UpdateMember", () => {
  it("an admin promotes a developer: 200 with the member, and the developer's own token acts as an admin at once, audited", async () => {
    const t = await team();
    // A developer may not invite yet.
    expectError(
      await rest("POST", "/v1/members/invite", t.developer.headers, { email: newEmail(), role: "developer" }),
      403,
      "ROLE_REQUIRED",
    );
    const answer = await setRole(t.admin.headers, t.developer.member.id, "admin");
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.member).toMatchObject({ id: t.developer.member.id, email: t.developer.email, role: "admin" });
    expect(typeof answer.body.member.created_at).toBe("string");
    // The same token, not a new sign-in.
    const invite = await rest("POST", "/v1/members/invite", t.developer.headers, {
      email: newEmail(),
      role: "developer",
    });
    expect(invite.status, JSON.stringify(invite.body)).toBe(200);
    expect(await roleEvents(t.organization.id, t.developer.member.id)).toEqual([
      { actor_type: "member", actor_id: t.admin.id, details: { role: "admin", previous_role: "developer" } },
    ]);
  });

  it("an admin demotes another admin, whose token is refused admin RPCs at once; the role it has already changes nothing and records nothing", async () => {
    const t = await team();
    const second = await seedMember(ctx.server.deps, t.organization, "admin");
    const secondHeaders = bearer(await kit.token(second.email, second.password));
    const demoted = await setRole(t.admin.headers, second.member.id, "developer");
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);
    expect(demoted.body.member.role).toBe("developer");
    expectError(
      await rest("POST", "/v1/members/invite", secondHeaders, { email: newEmail(), role: "developer" }),
      403,
      "ROLE_REQUIRED",
    );
    const again = await setRole(t.admin.headers, second.member.id, "developer");
    expect([again.status, again.body.member.role]).toEqual([200, "developer"]);
    expect(await roleEvents(t.organization.id, second.member.id)).toHaveLength(1);
    const listed = await rest("GET", "/v1/members?limit=100", t.admin.headers);
    expect(listed.body.data.find((m: { id: string }) => m.id === second.member.id).role).toBe("developer");
  });

  it("the organization's only admin cannot become a developer (LAST_ADMIN, role kept); with a second admin it may demote itself", async () => {
    const t = await team();
    const refused = await setRole(t.admin.headers, t.admin.id, "developer");
    expectError(refused, 400, "LAST_ADMIN");
    expect(refused.body.code).toBe("failed_precondition");
    expect(refused.body.message).toMatch(/only admin/);
    expect((await ctx.sql("SELECT role FROM members WHERE id = $1", [t.admin.id]))[0].role).toBe("admin");
    expect(await roleEvents(t.organization.id, t.admin.id)).toEqual([]);

    expect((await setRole(t.admin.headers, t.developer.member.id, "admin")).status).toBe(200);
    const self = await setRole(t.admin.headers, t.admin.id, "developer");
    expect([self.status, self.body.member.role]).toEqual([200, "developer"]);
    // Now a developer: its next admin call is refused.
    expectError(await setRole(t.admin.headers, t.admin.id, "admin"), 403, "ROLE_REQUIRED");
  });

  it("two admins demoting each other at once: exactly one succeeds, the other is LAST_ADMIN, one admin stays", async () => {
    for (let round = 0; round < 3; round++) {
      const org = await seedOrganization(ctx.server.deps);
      const other = await seedMember(ctx.server.deps, org.organization, "admin");
      const outcomes = await Promise.allSettled([
        updateMember(
          ctx.server.deps,
          { organizationId: org.organization.id, memberId: org.admin.id, role: "developer" },
          SYSTEM_ORIGIN,
        ),
        updateMember(
          ctx.server.deps,
          { organizationId: org.organization.id, memberId: other.member.id, role: "developer" },
          SYSTEM_ORIGIN,
        ),
      ]);
      const refused = outcomes.filter((o) => o.status === "rejected");
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect((refused[0].reason as DomainError).reason).toBe("LAST_ADMIN");
      const admins = await ctx.sql("SELECT id FROM members WHERE organization_id = $1 AND role = 'admin'", [
        org.organization.id,
      ]);
      expect(admins).toHaveLength(1);
    }
  });

  const refusals: Array<{
    name: string;
    headers: () => Record<string, string>;
    id: () => string;
    body: () => unknown;
    status: number;
    reason: string;
    field?: string;
  }> = [
    {
      name: "no credential",
      headers: () => ({}),
      id: () => f.developer.member.id,
      body: () => ({ role: "admin" }),
      status: 401,
      reason: "MISSING_MANAGEMENT_TOKEN",
    },
    {
      name: "expired token",
      headers: () => f.expiredHeaders,
      id: () => f.developer.member.id,
      body: () => ({ role: "admin" }),
      status: 401,
      reason: "INVALID_MANAGEMENT_TOKEN",
    },
    {
      name: "a developer promoting itself",
      headers: () => f.developer.headers,
      id: () => f.developer.member.id,
      body: () => ({ role: "admin" }),
      status: 403,
      reason: "ROLE_REQUIRED",
    },
    {
      name: "another organization's member",
      headers: () => f.outsider.headers,
      id: () => f.developer.member.id,
      body: () => ({ role: "admin" }),
      status: 404,
      reason: "MEMBER_NOT_FOUND",
    },
    {
      name: "an unknown id",
      headers: () => f.admin.headers,
      id: () => "mem_unknown",
      body: () => ({ role: "admin" }),
      status: 404,
      reason: "MEMBER_NOT_FOUND",
    },
    {
      name: "a role outside admin|developer",
      headers: () => f.admin.headers,
      id: () => f.developer.member.id,
      body: () => ({ role: "owner" }),
      status: 400,
      reason: "VALIDATION_FAILED",
      field: "role",
    },
    {
      name: "no role",
      headers: () => f.admin.headers,
      id: () => f.developer.member.id,
      body: () => ({}),
      status: 400,
      reason: "VALIDATION_FAILED",
      field: "role",
    },
  ];
  it.each(refusals)("$name → $status $reason, the role unchanged", async (c) => {
    const answer = await rest("PATCH", `/v1/members/${c.id()}`, c.headers(), c.body());
    expectError(answer, c.status, c.reason);
    if (c.field) expect(answer.body.violations.map((v: { field: string }) => v.field)).toEqual([c.field]);
    expect((await ctx.sql("SELECT role FROM members WHERE id = $1", [f.developer.member.id]))[0].role).toBe(
      "developer",
    );
  });
});

describe("ListMemberInvitations", () => {
  it("lists pending invitations newest first (email, role, inviter, sent, expiry), never the link; a re-invite replaces, an accepted one leaves", async () => {
    const t = await team();
    const first = newEmail();
    const second = newEmail();
    const firstToken = await kit.invite(t.admin.headers, first, "developer");
    await kit.invite(t.admin.headers, second, "developer");
    await kit.invite(t.admin.headers, second, "admin"); // replaces the pending one: sent again, now admin
    const listed = await rest("GET", "/v1/members/invitations", t.developer.headers);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.map((v: { email: string; role: string }) => [v.email, v.role])).toEqual([
      [second, "admin"],
      [first, "developer"],
    ]);
    const [top] = listed.body.data;
    expect(Object.keys(top).sort()).toEqual(["created_at", "email", "expires_at", "id", "invited_by", "role"]);
    expect(top.id).toMatch(/^inv_/);
    expect(top.invited_by).toBe(t.admin.id);
    // Seven days from the invitation (the row's time is read a moment after the expiry's).
    const lifetime = Date.parse(top.expires_at) - Date.parse(top.created_at);
    expect(lifetime).toBeGreaterThan(7 * DAY_MS - 60_000);
    expect(lifetime).toBeLessThanOrEqual(7 * DAY_MS);
    expect(JSON.stringify(listed.body)).not.toContain(firstToken);
    // Members are not invitations, and invitations are not members.
    const members = await rest("GET", "/v1/members?limit=100", t.admin.headers);
    expect(members.body.data.map((m: { email: string }) => m.email)).not.toContain(first);

    expect((await kit.accept(firstToken, "a fresh member password")).status).toBe(200);
    const after = await rest("GET", "/v1/members/invitations", t.admin.headers);
    expect(after.body.data.map((v: { email: string }) => v.email)).toEqual([second]);
  });

  it("pages with cursors; another organization sees none of them, and its cursor does not work here", async () => {
    const t = await team();
    const emails = [newEmail(), newEmail(), newEmail()];
    for (const email of emails) {
      await kit.invite(t.admin.headers, email, "developer");
      await new Promise((r) => setTimeout(r, 3)); // distinct created_at, so the order is known
    }
    const seen: string[] = [];
    let query = "?limit=2";
    for (let pages = 1; ; pages++) {
      const page = await rest("GET", `/v1/members/invitations${query}`, t.admin.headers);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      seen.push(...page.body.data.map((v: { email: string }) => v.email));
      if (!page.body.has_more) {
        expect(pages).toBe(2);
        break;
      }
      query = `?limit=2&cursor=${page.body.next_cursor}`;
      expectError(await rest("GET", `/v1/members/invitations${query}`, f.outsider.headers), 400, "INVALID_CURSOR");
    }
    expect(seen).toEqual([...emails].reverse());
    const outsider = await rest("GET", "/v1/members/invitations?limit=100", f.outsider.headers);
    expect(outsider.body.data.map((v: { email: string }) => v.email)).not.toContain(emails[0]);
    expectError(await rest("GET", "/v1/members/invitations", {}), 401, "MISSING_MANAGEMENT_TOKEN");
  });
});

describe("GetCurrentMember", () => {
  it("names the calling member (id, email, role) and its organization by name", async () => {
    const answer = await rest("GET", "/v1/account/member", f.developer.headers);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({
      member: {
        id: f.developer.member.id,
        email: f.developer.email,
        role: "developer",
        created_at: f.developer.member.createdAt.toISOString(),
        // No second factor set up (ListMembers says the same).
        mfa_enabled: false,
      },
      organization_id: f.organization.id,
      organization_name: f.organization.name,
    });
    const outsider = await rest("GET", "/v1/account/member", f.outsider.headers);
    expect([outsider.body.organization_name, outsider.body.member.role]).toEqual([
      f.outsider.organization.name,
      "admin",
    ]);
    expectError(await rest("GET", "/v1/account/member", f.expiredHeaders), 401, "INVALID_MANAGEMENT_TOKEN");
  });
});

describe("on the wire", () => {
  it("REST over the port, gRPC and Connect: UpdateMember, ListMemberInvitations and GetCurrentMember", async () => {
    const t = await team();
    const email = newEmail();
    await kit.invite(t.admin.headers, email, "admin");

    const promoted = await http(`${ctx.server.url}/v1/members/${t.developer.member.id}`, {
      method: "PATCH",
      headers: t.admin.headers,
      body: { role: "admin" },
    });
    expect([promoted.status, promoted.body.member.role]).toEqual([200, "admin"]);
    // The promoted member steps back itself (two admins: allowed), then the last admin may not.
    const selfDemoted = await grpcCall(
      grpcClient(ctx.server.port, "account"),
      "UpdateMember",
      { id: t.developer.member.id, role: "developer" },
      t.developer.headers,
    );
    expect(selfDemoted.response?.member.role).toBe("developer");
    const refused = await grpcCall(
      grpcClient(ctx.server.port, "account"),
      "UpdateMember",
      { id: t.admin.id, role: "developer" },
      t.admin.headers,
    );
    expect(refused.reason).toBe("LAST_ADMIN");

    const viaGrpc = await grpcCall(
      grpcClient(ctx.server.port, "account"),
      "ListMemberInvitations",
      {},
      t.admin.headers,
    );
    expect(viaGrpc.response.data.map((v: { email: string; role: string }) => [v.email, v.role])).toEqual([
      [email, "admin"],
    ]);
    const viaConnect = await injectConnect(
      ctx.server.handle,
      "account",
      "ListMemberInvitations",
      {},
      t.developer.headers,
    );
    expect(viaConnect.body.data.map((v: { email: string }) => v.email)).toEqual([email]);

    const me = await http(`${ctx.server.url}/v1/account/member`, { headers: t.admin.headers });
    expect([me.status, me.body.organization_name, me.body.member.id]).toEqual([200, t.organization.name, t.admin.id]);
    const meGrpc = await grpcCall(grpcClient(ctx.server.port, "account"), "GetCurrentMember", {}, t.developer.headers);
    expect([meGrpc.response.organization_name, meGrpc.response.member.email]).toEqual([
      t.organization.name,
      t.developer.email,
    ]);
  });
});

// Last: it moves the server's clock a week on, past every management token of the fixture.
describe("ListMemberInvitations, a week later", () => {
  it("an expired invitation is no longer listed (seven days on the server's clock)", async () => {
    const t = await team();
    const email = newEmail();
    await kit.invite(t.admin.headers, email, "developer");
    const listed = async () => {
      // Management tokens last 12 hours: sign in again on the moved clock.
      const headers = bearer(await kit.token(t.email, t.password));
      return (await rest("GET", "/v1/members/invitations", headers)).body.data.map((v: { email: string }) => v.email);
    };
    ctx.clock.advance(7 * DAY_MS - 60_000);
    expect(await listed()).toEqual([email]);
    ctx.clock.advance(120_000);
    expect(await listed()).toEqual([]);
  });
});
