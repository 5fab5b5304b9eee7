import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthService } from "../../gen/gatehouse/auth/v1/auth_pb.js";
import { CONSOLE_RPCS } from "../../src/interceptors/authenticators/console.js";
import { memoryClients } from "../helpers/memory.js";
import { outcome } from "../helpers/outcome.js";
import { seedApiKey, seedMember, seedOrganization, seedProject } from "../helpers/seed.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";

// The console's credential on the Authentication interface, in memory: a member's management
// token with X-Gatehouse-Console naming a project acts as that project's administrator, for the
// user-administration RPCs only, from the console's origin only, for the member's own
// organization's projects only (src/interceptors/authenticators/console.ts). The wire test
// (test/trust/console-credential.test.ts) checks the same over REST and gRPC.

// Written out by hand, not read from the allow-list: widening it must fail this test.
const REACHABLE = [
  "ListUsers",
  "GetUser",
  "CreateUser",
  "InviteUser",
  "UpdateUser",
  "DeleteUser",
  "RequestPasswordReset",
  "ListUserSessions",
  "RevokeUserSession",
  "RevokeAllUserSessions",
  "ListIdentities",
  "UnlinkIdentity",
  "ListPasskeys",
  "RenamePasskey",
  "DeletePasskey",
  "ListAuthorizedApps",
  "RevokeAuthorizedApp",
];

describe("the console's credential, in memory", () => {
  let server: TestServer;
  let clients: ReturnType<typeof memoryClients>;
  let origin: string;
  const tokens = { admin: "", developer: "", otherOrg: "" };
  let project = "";
  let otherProject = "";
  let deletedProject = "";
  let userId = "";
  let memberId = "";
  let key = "";

  const console_ = (token: string, projectId = project, from: string | null = origin) => ({
    headers: {
      authorization: `Bearer ${token}`,
      "x-gatehouse-console": projectId,
      ...(from === null ? {} : { origin: from }),
    },
  });

  beforeAll(async () => {
    server = await sharedTestServer();
    const deps = server.deps;
    clients = memoryClients(deps);
    origin = new URL(deps.config.publicUrl).origin;
    const org = await seedOrganization(deps);
    memberId = org.admin.id;
    const developer = await seedMember(deps, org.organization, "developer");
    const login = async (email: string, password: string) =>
      (await clients.account.login({ email, password })).managementToken;
    tokens.admin = await login(org.email, org.password);
    tokens.developer = await login(developer.email, developer.password);
    const p = await seedProject(deps, org.organization);
    project = p.id;
    const doomed = await seedProject(deps, org.organization);
    deletedProject = doomed.id;
    await deps.db.repos.projects.delete(org.organization.id, doomed.id);
    const other = await seedOrganization(deps);
    tokens.otherOrg = await login(other.email, other.password);
    otherProject = (await seedProject(deps, other.organization)).id;
    key = (await seedApiKey(deps, p)).key;
    const created = await clients.auth.createUser(
      { email: `console-${Date.now()}@example.com` },
      { headers: { "x-service-key": key } },
    );
    userId = created.id;
  });
  afterAll(() => server?.stop());

  it("lets an admin and a developer list, read and change the project's users", async () => {
    for (const token of [tokens.admin, tokens.developer]) {
      const list = await clients.auth.listUsers({}, console_(token));
      expect(list.data.map((u) => u.id)).toContain(userId);
      expect((await clients.auth.getUser({ id: userId }, console_(token))).id).toBe(userId);
      const sessions = await clients.auth.listUserSessions({ userId }, console_(token));
      expect(sessions.data).toEqual([]);
    }
  });

  it("records the member as the actor of what it changes", async () => {
    await clients.auth.updateUser({ id: userId, metadata: { plan: "gold" } }, console_(tokens.admin));
    const events = await clients.account.listAuditEvents(
      { projectId: project, userId, type: ["user.updated"] },
      { headers: { authorization: `Bearer ${tokens.admin}` } },
    );
    expect(events.data[0]?.actorType).toBe("member");
    expect(events.data[0]?.actorId).toBe(memberId);
  });

  const refusals = [
    {
      what: "no Origin (a server or a script)",
      options: () => console_(tokens.admin, project, null),
      code: "PermissionDenied",
      reason: "ORIGIN_NOT_ALLOWED",
    },
    {
      what: "another site's Origin",
      options: () => console_(tokens.admin, project, "https://evil.example"),
      code: "PermissionDenied",
      reason: "ORIGIN_NOT_ALLOWED",
    },
    {
      what: "no Authorization",
      options: () => ({ headers: { origin, "x-gatehouse-console": project } }),
      code: "Unauthenticated",
      reason: "MISSING_MANAGEMENT_TOKEN",
    },
    {
      what: "an unknown token",
      options: () => console_("gmt_not-a-real-token"),
      code: "Unauthenticated",
      reason: "INVALID_MANAGEMENT_TOKEN",
    },
    {
      what: "a Basic header",
      options: () => ({ headers: { origin, "x-gatehouse-console": project, authorization: "Basic eDp5" } }),
      code: "Unauthenticated",
      reason: "INVALID_MANAGEMENT_TOKEN",
    },
    {
      what: "another organization's project",
      options: () => console_(tokens.otherOrg, project),
      code: "NotFound",
      reason: "PROJECT_NOT_FOUND",
    },
    {
      what: "a deleted project",
      options: () => console_(tokens.admin, deletedProject),
      code: "NotFound",
      reason: "PROJECT_NOT_FOUND",
    },
    {
      what: "a malformed project id",
      options: () => console_(tokens.admin, "proj_../x"),
      code: "NotFound",
      reason: "PROJECT_NOT_FOUND",
    },
  ];
  it.each(refusals)("ListUsers with $what: $code $reason", async ({ options, code, reason }) => {
    expect(await outcome(clients.auth.listUsers({}, options()))).toEqual({ code, reason });
  });

  it("a member of another organization cannot reach its own project's users through a foreign one, nor the reverse", async () => {
    expect((await clients.auth.listUsers({}, console_(tokens.otherOrg, otherProject))).data).toEqual([]);
    expect(await outcome(clients.auth.getUser({ id: userId }, console_(tokens.otherOrg, otherProject)))).toEqual({
      code: "NotFound",
      reason: "USER_NOT_FOUND",
    });
  });

  it("reaches user administration only: every other Auth RPC is SCOPE_REQUIRED, before its input is read", async () => {
    expect([...CONSOLE_RPCS].sort()).toEqual([...REACHABLE].sort());
    for (const method of AuthService.methods) {
      if (REACHABLE.includes(method.name)) continue;
      const call = (clients.auth as unknown as Record<string, (req: object, o: object) => Promise<unknown>>)[
        method.localName
      ];
      expect({ rpc: method.name, ...(await outcome(call({}, console_(tokens.admin)))) }).toEqual({
        rpc: method.name,
        code: "PermissionDenied",
        reason: "SCOPE_REQUIRED",
      });
    }
  });

  it("an API key beside it is the credential: the management token then fails closed as an access token", async () => {
    // With a key, Authorization is the user's access token, so a management token fails closed
    // rather than falling back to the key's admin rights or the console's.
    const withKey = await outcome(
      clients.auth.listUsers(
        {},
        { headers: { ...console_(tokens.admin, project, null).headers, "x-service-key": key } },
      ),
    );
    expect(withKey).toEqual({ code: "Unauthenticated", reason: "INVALID_ACCESS_TOKEN" });
  });
});
