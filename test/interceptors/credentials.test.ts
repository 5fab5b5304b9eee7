import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { hashToken, randomToken } from "../../src/crypto/tokens.js";
import { memoryClients } from "../helpers/memory.js";
import { outcome } from "../helpers/outcome.js";
import { http } from "../helpers/clients.js";
import { seedApiKey, seedMember, seedOrganization, seedProject } from "../helpers/seed.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";

// The credential interceptor's rules, in memory (createRouterTransport): the whole interceptor
// chain and the handlers, no HTTP. test/credentials.test.ts checks the same refusals on each
// wire protocol, with the status a client sees there.

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const serviceKey = (key: string) => ({ headers: { "x-service-key": key } });

describe("credentials, in memory", () => {
  let server: TestServer;
  let clients: ReturnType<typeof memoryClients>;
  const tokens = { admin: "", developer: "", expired: "" };
  const keys = { full: "", readOnly: "", revoked: "", expired: "", deletedProject: "" };

  beforeAll(async () => {
    server = await sharedTestServer();
    const deps = server.deps;
    clients = memoryClients(deps);
    const { organization, admin, email, password } = await seedOrganization(deps);
    const developer = await seedMember(deps, organization, "developer");
    const login = async (e: string, p: string) =>
      (await clients.account.login({ email: e, password: p })).managementToken;
    tokens.admin = await login(email, password);
    tokens.developer = await login(developer.email, developer.password);
    tokens.expired = randomToken("gmt");
    await deps.db.repos.managementTokens.create(organization.id, {
      memberId: admin.id,
      tokenHash: hashToken(tokens.expired),
      expiresAt: new Date(Date.now() - 1000),
    });
    const project = await seedProject(deps, organization);
    keys.full = (await seedApiKey(deps, project)).key;
    keys.readOnly = (await seedApiKey(deps, project, { scopes: ["auth:read"] })).key;
    const revoked = await seedApiKey(deps, project);
    keys.revoked = revoked.key;
    await deps.db.repos.apiKeys.revokeActive(organization.id, revoked.apiKey.id, new Date());
    keys.expired = (await seedApiKey(deps, project, { expiresAt: new Date(Date.now() - 1000) })).key;
    const doomed = await seedProject(deps, organization);
    keys.deletedProject = (await seedApiKey(deps, doomed)).key;
    await deps.db.repos.projects.delete(organization.id, doomed.id);
  });
  afterAll(() => server?.stop());

  describe("management token (Account interface)", () => {
    it.each([
      ["no Authorization header", "Unauthenticated", "MISSING_MANAGEMENT_TOKEN", () => ({})],
      ["an unknown token", "Unauthenticated", "INVALID_MANAGEMENT_TOKEN", () => bearer("gmt_not-a-real-token")],
      ["an expired token", "Unauthenticated", "INVALID_MANAGEMENT_TOKEN", () => bearer(tokens.expired)],
      [
        "an API key",
        "Unauthenticated",
        "INVALID_MANAGEMENT_TOKEN",
        () => ({ headers: { authorization: `Bearer ${keys.full}`, "x-service-key": keys.full } }),
      ],
    ] as const)("ListProjects with %s: %s %s", async (_what, code, reason, options) => {
      expect(await outcome(clients.account.listProjects({}, options()))).toEqual({ code, reason });
    });

    it("a developer calling an admin RPC: PermissionDenied ROLE_REQUIRED", async () => {
      expect(await outcome(clients.account.deleteProject({ id: "proj_x" }, bearer(tokens.developer)))).toEqual({
        code: "PermissionDenied",
        reason: "ROLE_REQUIRED",
      });
    });

    it("an admin passes the credential check and reaches the RPC", async () => {
      expect(await outcome(clients.account.deleteProject({ id: "proj_x" }, bearer(tokens.admin)))).toEqual({
        code: "NotFound",
        reason: "PROJECT_NOT_FOUND",
      });
    });

    it("a developer passes for RPCs open to developers", async () => {
      expect(await outcome(clients.account.listProjects({}, bearer(tokens.developer)))).toEqual({ code: "ok" });
    });
  });

  describe("API key (Authentication interface)", () => {
    const login = { email: "user@example.com", password: "whatever-password" };
    it.each([
      ["no X-Service-Key", "Unauthenticated", "MISSING_API_KEY", () => ({})],
      ["an unknown key", "Unauthenticated", "INVALID_API_KEY", () => serviceKey("gk_unknown")],
      ["a revoked key", "Unauthenticated", "INVALID_API_KEY", () => serviceKey(keys.revoked)],
      ["an expired key", "Unauthenticated", "INVALID_API_KEY", () => serviceKey(keys.expired)],
      ["a key of a deleted project", "Unauthenticated", "INVALID_API_KEY", () => serviceKey(keys.deletedProject)],
      ["a management token", "Unauthenticated", "INVALID_API_KEY", () => serviceKey(tokens.admin)],
      ["a key without the RPC's scope", "PermissionDenied", "SCOPE_REQUIRED", () => serviceKey(keys.readOnly)],
      // The key passes; the RPC then judges the password.
      ["a key with the scope", "Unauthenticated", "INVALID_CREDENTIALS", () => serviceKey(keys.full)],
    ] as const)("Login with %s: %s %s", async (_what, code, reason, options) => {
      expect(await outcome(clients.auth.login(login, options()))).toEqual({ code, reason });
    });
  });

  describe("user access token (beside the API key)", () => {
    it.each([
      ["no access token where one is required", "MISSING_ACCESS_TOKEN", () => serviceKey(keys.full)],
      [
        "a token that is not a valid access token",
        "INVALID_ACCESS_TOKEN",
        () => ({ headers: { "x-service-key": keys.full, authorization: "Bearer eyJhbGciOiJub25lIn0.e30." } }),
      ],
      ["an access token without the API key", "MISSING_API_KEY", () => bearer("whatever")],
    ] as const)("ListSessions with %s: Unauthenticated %s", async (_what, reason, options) => {
      expect(await outcome(clients.auth.listSessions({}, options()))).toEqual({ code: "Unauthenticated", reason });
    });
  });

  it("credentials are checked before input is validated", async () => {
    expect(await outcome(clients.auth.signup({ email: "not-an-email", password: "x" }))).toEqual({
      code: "Unauthenticated",
      reason: "MISSING_API_KEY",
    });
  });

  it("input is validated before the handler runs, with the violations named", async () => {
    const refused = await clients.auth.signup({ email: "not-an-email", password: "x" }, serviceKey(keys.full)).then(
      () => undefined,
      (thrown: unknown) => ConnectError.from(thrown),
    );
    expect(refused?.code).toBe(Code.InvalidArgument);
    expect(refused?.findDetails(ErrorInfoSchema)[0]?.reason).toBe("VALIDATION_FAILED");
    // The same refusal over REST, to show the in-memory chain is the one the port serves.
    const rest = await http(`${server.url}/v1/auth/signup`, {
      headers: { "x-service-key": keys.full },
      body: { email: "not-an-email", password: "x" },
    });
    expect({ status: rest.status, reason: rest.body.reason }).toEqual({ status: 400, reason: "VALIDATION_FAILED" });
  });
});
