import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/crypto/tokens.js";
import { accountFixture, expectError, type AccountFixture } from "../helpers/account.js";
import { connectReason, grpcCall, grpcClient, http } from "../helpers/clients.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { bearer, membersKit, PUBLIC_URL } from "../helpers/members.js";
import { seedMember, seedOrganization } from "../helpers/seed.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { injectConnect, injectHttp } from "../helpers/inject.js";

// Management access can be taken back (issue 13). Threats: a token that outlives its sign-out;
// a member who was removed (or whose laptop was stolen) keeps acting for the organization; a
// developer removes members; an admin reaches another organization's members; an organization
// loses its last admin, even through two admins removing each other at once; removing a person
// from one organization locks it out of the others.

const ctx = useMessagingServer({ smtp: true, env: { PUBLIC_URL } });
const kit = membersKit(
  () => ctx.server,
  () => ctx.smtp,
);
let f: AccountFixture;
let counter = 0;
const newEmail = () => `leaver-${Date.now().toString(36)}-${counter++}@example.com`;

beforeAll(async () => {
  f = await accountFixture(ctx.server);
});

const logout = (token: string) =>
  injectHttp(ctx.server.handle, "/v1/account/logout", { headers: bearer(token), body: {} });
const remove = (headers: Record<string, string>, id: string) =>
  injectHttp(ctx.server.handle, `/v1/members/${id}`, { method: "DELETE", headers });

/** A fresh organization with its admin signed in, and a developer signed in twice. */
async function team() {
  const org = await seedOrganization(ctx.server.deps);
  const developer = await seedMember(ctx.server.deps, org.organization, "developer");
  return {
    ...org,
    adminToken: await kit.token(org.email, org.password),
    developer,
    developerTokens: [
      await kit.token(developer.email, developer.password),
      await kit.token(developer.email, developer.password),
    ],
  };
}

describe("Logout", () => {
  it("revokes the calling token at once (401 INVALID_MANAGEMENT_TOKEN after), its row gone; the member's other token still works", async () => {
    const t = await team();
    const [signedOut, kept] = t.developerTokens;
    const answer = await logout(signedOut);
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { revoked: true } });
    expectError(await kit.listProjects(signedOut), 401, "INVALID_MANAGEMENT_TOKEN");
    expectError(await logout(signedOut), 401, "INVALID_MANAGEMENT_TOKEN");
    expect(await ctx.sql("SELECT id FROM management_tokens WHERE token_hash = $1", [hashToken(signedOut)])).toEqual([]);
    expect((await kit.listProjects(kept)).status).toBe(200);
    expect((await kit.listProjects(t.adminToken)).status).toBe(200);
  });

  it("without a token: 401 MISSING_MANAGEMENT_TOKEN; an expired one: INVALID_MANAGEMENT_TOKEN", async () => {
    expectError(
      await injectHttp(ctx.server.handle, "/v1/account/logout", { body: {} }),
      401,
      "MISSING_MANAGEMENT_TOKEN",
    );
    expectError(
      await injectHttp(ctx.server.handle, "/v1/account/logout", { headers: f.expiredHeaders, body: {} }),
      401,
      "INVALID_MANAGEMENT_TOKEN",
    );
  });

  it("gRPC signs out; Connect then answers unauthenticated", async () => {
    const t = await team();
    const token = t.developerTokens[0];
    const viaGrpc = await grpcCall(grpcClient(ctx.server.port, "account"), "Logout", {}, bearer(token));
    expect(viaGrpc.response).toEqual({ revoked: true });
    const viaConnect = await injectConnect(ctx.server.handle, "account", "ListProjects", {}, bearer(token));
    expect({ status: viaConnect.status, reason: connectReason(viaConnect.body) }).toEqual({
      status: 401,
      reason: "INVALID_MANAGEMENT_TOKEN",
    });
  });
});

describe("RemoveMember", () => {
  it("removes the member: 200 {removed, id}, every token of it for the organization fails at once, gone from ListMembers; a second removal is 404", async () => {
    const t = await team();
    const admin = bearer(t.adminToken);
    const answer = await remove(admin, t.developer.member.id);
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 200,
      body: { removed: true, id: t.developer.member.id },
    });
    for (const token of t.developerTokens) expectError(await kit.listProjects(token), 401, "INVALID_MANAGEMENT_TOKEN");
    const members = await kit.listMembers(t.adminToken);
    expect(members.body.data.map((m: { id: string }) => m.id)).not.toContain(t.developer.member.id);
    expectError(await remove(admin, t.developer.member.id), 404, "MEMBER_NOT_FOUND");
    // The identity stays, without organizations: its password signs in to nothing.
    expectError(await kit.login(t.developer.email, t.developer.password), 401, "INVALID_CREDENTIALS");
  });

  it("refusals: a developer (403 ROLE_REQUIRED), another organization's member or an unknown id (404 MEMBER_NOT_FOUND), and none of them removes anything", async () => {
    const t = await team();
    expectError(await remove(bearer(t.developerTokens[0]), f.developer.member.id), 403, "ROLE_REQUIRED");
    expectError(await remove(bearer(t.developerTokens[0]), t.developer.member.id), 403, "ROLE_REQUIRED");
    expectError(await remove(bearer(t.adminToken), f.developer.member.id), 404, "MEMBER_NOT_FOUND");
    expectError(await remove(bearer(t.adminToken), f.outsider.member.id), 404, "MEMBER_NOT_FOUND");
    expectError(await remove(bearer(t.adminToken), "mem_00000000000000000000000000"), 404, "MEMBER_NOT_FOUND");
    expectError(await remove(f.outsider.headers, t.developer.member.id), 404, "MEMBER_NOT_FOUND");
    expect((await kit.listProjects(f.developer.token)).status).toBe(200);
    expect((await kit.listProjects(t.developerTokens[0])).status).toBe(200);
  });

  it("the last admin cannot be removed (400 LAST_ADMIN), not even by itself; with a second admin, an admin may remove itself and its token dies", async () => {
    const t = await team();
    const solo = await remove(bearer(t.adminToken), t.admin.id);
    expectError(solo, 400, "LAST_ADMIN");
    expect(solo.body.code).toBe("failed_precondition");
    expect((await kit.listProjects(t.adminToken)).status).toBe(200);

    const second = await seedMember(ctx.server.deps, t.organization, "admin");
    const secondToken = await kit.token(second.email, second.password);
    const self = await remove(bearer(secondToken), second.member.id);
    expect({ status: self.status, body: self.body }).toEqual({
      status: 200,
      body: { removed: true, id: second.member.id },
    });
    expectError(await kit.listProjects(secondToken), 401, "INVALID_MANAGEMENT_TOKEN");
    expectError(await remove(bearer(t.adminToken), t.admin.id), 400, "LAST_ADMIN");
  });

  it("two admins removing each other at once: exactly one succeeds, the other is LAST_ADMIN, one admin remains", async () => {
    for (let round = 0; round < 3; round++) {
      const t = await team();
      const other = await seedMember(ctx.server.deps, t.organization, "admin");
      const otherToken = await kit.token(other.email, other.password);
      const answers = await Promise.all([
        remove(bearer(t.adminToken), other.member.id),
        remove(bearer(otherToken), t.admin.id),
      ]);
      const outcomes = answers.map((a) => (a.status === 200 ? "removed" : a.body.reason)).sort();
      // Either one wins and the loser finds itself the last admin, or the loser's own token
      // was already revoked with its membership (401): never two removals.
      expect([
        ["LAST_ADMIN", "removed"],
        ["INVALID_MANAGEMENT_TOKEN", "removed"],
      ]).toContainEqual(outcomes);
      const [{ n }] = await ctx.sql(
        "SELECT count(*)::int AS n FROM members WHERE organization_id = $1 AND role = 'admin'",
        [t.organization.id],
      );
      expect(n).toBe(1);
    }
  });

  it("removal from one organization leaves the person's other organization working: its token, and Login, now straight to it", async () => {
    const t = await team();
    const person = { email: newEmail(), password: "member here and there" };
    const inF = await kit.accept(await kit.invite(f.admin.headers, person.email), person.password);
    const inT = await kit.accept(await kit.invite(bearer(t.adminToken), person.email), person.password);
    const memberHere = (await kit.listMembers(t.adminToken)).body.data.find(
      (m: { email: string }) => m.email === person.email,
    );

    expect((await remove(bearer(t.adminToken), memberHere.id)).status).toBe(200);
    expectError(await kit.listProjects(inT.body.management_token), 401, "INVALID_MANAGEMENT_TOKEN");
    expect((await kit.listProjects(inF.body.management_token)).status).toBe(200);
    const login = await kit.login(person.email, person.password);
    expect(login.body.organization_id).toBe(f.organization.id);
    expect(login.body.management_token).toMatch(/^gmt_/);
    expectError(await kit.login(person.email, person.password, t.organization.id), 401, "INVALID_CREDENTIALS");
  });

  it("gRPC: NOT_FOUND MEMBER_NOT_FOUND for another organization's member; Connect removes", async () => {
    const t = await team();
    const grpc = await grpcCall(
      grpcClient(ctx.server.port, "account"),
      "RemoveMember",
      { id: f.developer.member.id },
      bearer(t.adminToken),
    );
    expect({ code: grpc.error?.code, reason: grpc.reason }).toEqual({ code: 5, reason: "MEMBER_NOT_FOUND" });
    const viaConnect = await injectConnect(
      ctx.server.handle,
      "account",
      "RemoveMember",
      { id: t.developer.member.id },
      bearer(t.adminToken),
    );
    expect({ status: viaConnect.status, body: viaConnect.body }).toEqual({
      status: 200,
      body: { removed: true, id: t.developer.member.id },
    });
  });
});

// Two instances on one PostgreSQL database: a token revoked through one fails on the other at
// once, since neither keeps management tokens in memory.
describe.runIf(Boolean(process.env.DATABASE_URL))("on every instance", () => {
  let db: TestDatabase;
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    first = await startTestServer({}, db);
    second = await startTestServer({}, db);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await db?.drop();
  });

  it("Logout and RemoveMember through one instance end the tokens on the other", async () => {
    const org = await seedOrganization(first.deps);
    const developer = await seedMember(first.deps, org.organization, "developer");
    const signIn = async (email: string, password: string) =>
      (await http(`${first.url}/v1/account/login`, { body: { email, password } })).body.management_token as string;
    const adminToken = await signIn(org.email, org.password);
    const devToken = await signIn(developer.email, developer.password);
    const projects = (server: TestServer, token: string) =>
      injectHttp(server.handle, "/v1/projects", { headers: bearer(token) });
    expect((await projects(second, devToken)).status).toBe(200);

    expect(
      (await http(`${first.url}/v1/members/${developer.member.id}`, { method: "DELETE", headers: bearer(adminToken) }))
        .status,
    ).toBe(200);
    expectError(await projects(second, devToken), 401, "INVALID_MANAGEMENT_TOKEN");

    expect((await projects(second, adminToken)).status).toBe(200);
    expect((await http(`${first.url}/v1/account/logout`, { headers: bearer(adminToken), body: {} })).status).toBe(200);
    expectError(await projects(second, adminToken), 401, "INVALID_MANAGEMENT_TOKEN");
  });
});
