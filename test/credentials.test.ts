import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken, randomToken } from "../src/crypto/tokens.js";
import { connectReason, grpcCall, grpcClient, http } from "./helpers/clients.js";
import { injectConnect, injectHttp } from "./helpers/inject.js";
import { seedApiKey, seedMember, seedOrganization, seedProject } from "./helpers/seed.js";
import { type TestServer } from "./helpers/server.js";
import { sharedTestServer } from "./helpers/shared-server.js";

// Threat: a caller without the right credential reaches an RPC. Every credential failure is
// checked on REST, Connect and gRPC, with the status and the stable reason a client sees: REST
// and Connect handed to the server's request handler in memory (test/helpers/inject.ts), gRPC
// over the wire through @grpc/grpc-js. test/wire.test.ts takes each protocol end to end over
// the port; test/interceptors/credentials.test.ts checks the rules themselves in memory.

interface Call {
  service: "account" | "auth";
  /** RPC name as in the proto. */
  rpc: string;
  rest: { method: string; path: string };
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

interface Expected {
  status: number;
  code: string;
  grpcCode: number;
  reason: string;
}

const UNAUTHENTICATED = { status: 401, code: "unauthenticated", grpcCode: 16 };
const PERMISSION_DENIED = { status: 403, code: "permission_denied", grpcCode: 7 };

const NOT_FOUND = { status: 404, code: "not_found", grpcCode: 5 };

/** The call passes the credential check: it succeeds on every protocol. */
async function succeedsOverAllProtocols(server: TestServer, call: Call) {
  const rest = await injectHttp(server.handle, call.rest.path, { method: call.rest.method, headers: call.headers });
  expect(rest.status, "REST").toBe(200);
  const viaConnect = await injectConnect(server.handle, call.service, call.rpc, call.body, call.headers);
  expect(viaConnect.status, "Connect").toBe(200);
  const viaGrpc = await grpcCall(grpcClient(server.port, call.service), call.rpc, call.body, call.headers);
  expect(viaGrpc.error, "gRPC").toBeUndefined();
}

async function overAllProtocols(server: TestServer, call: Call, expected: Expected) {
  const rest = await injectHttp(server.handle, call.rest.path, {
    method: call.rest.method,
    headers: call.headers,
    body: call.rest.method === "GET" || call.rest.method === "DELETE" ? undefined : call.body,
  });
  expect({ status: rest.status, code: rest.body.code, reason: rest.body.reason }, "REST").toEqual({
    status: expected.status,
    code: expected.code,
    reason: expected.reason,
  });
  expect(rest.body.request_id).toBe(rest.headers.get("x-request-id"));

  const viaConnect = await injectConnect(server.handle, call.service, call.rpc, call.body, call.headers);
  expect(
    { status: viaConnect.status, code: viaConnect.body.code, reason: connectReason(viaConnect.body) },
    "Connect",
  ).toEqual({
    status: expected.status,
    code: expected.code,
    reason: expected.reason,
  });

  const method = call.rpc;
  const viaGrpc = await grpcCall(grpcClient(server.port, call.service), method, call.body, call.headers);
  expect({ code: viaGrpc.error?.code, reason: viaGrpc.reason }, "gRPC").toEqual({
    code: expected.grpcCode,
    reason: expected.reason,
  });
}

describe("credentials", () => {
  let server: TestServer;
  let adminToken: string;
  let developerToken: string;
  let expiredToken: string;
  let fullKey: string;
  let readOnlyKey: string;
  let revokedKey: string;
  let expiredKey: string;
  let deletedProjectKey: string;

  beforeAll(async () => {
    server = await sharedTestServer();
    const deps = server.deps;
    const { organization, admin, email, password } = await seedOrganization(deps);
    const developer = await seedMember(deps, organization, "developer");
    const login = async (e: string, p: string) =>
      (await http(`${server.url}/v1/account/login`, { body: { email: e, password: p } })).body
        .management_token as string;
    adminToken = await login(email, password);
    developerToken = await login(developer.email, developer.password);
    expiredToken = randomToken("gmt");
    await deps.db.repos.managementTokens.create(organization.id, {
      memberId: admin.id,
      tokenHash: hashToken(expiredToken),
      expiresAt: new Date(Date.now() - 1000),
    });

    const project = await seedProject(deps, organization);
    fullKey = (await seedApiKey(deps, project)).key;
    readOnlyKey = (await seedApiKey(deps, project, { scopes: ["auth:read"] })).key;
    const revoked = await seedApiKey(deps, project);
    revokedKey = revoked.key;
    await deps.db.repos.apiKeys.revokeActive(organization.id, revoked.apiKey.id, new Date());
    expiredKey = (await seedApiKey(deps, project, { expiresAt: new Date(Date.now() - 1000) })).key;
    const doomed = await seedProject(deps, organization);
    deletedProjectKey = (await seedApiKey(deps, doomed)).key;
    await deps.db.repos.projects.delete(organization.id, doomed.id);
  });
  afterAll(() => server?.stop());

  const listProjects = (headers: Record<string, string>): Call => ({
    service: "account",
    rpc: "ListProjects",
    rest: { method: "GET", path: "/v1/projects" },
    body: {},
    headers,
  });
  const deleteProject = (headers: Record<string, string>): Call => ({
    service: "account",
    rpc: "DeleteProject",
    rest: { method: "DELETE", path: "/v1/projects/proj_x" },
    body: { id: "proj_x" },
    headers,
  });
  const authLogin = (headers: Record<string, string>): Call => ({
    service: "auth",
    rpc: "Login",
    rest: { method: "POST", path: "/v1/auth/login" },
    body: { email: "user@example.com", password: "whatever-password" },
    headers,
  });
  const listSessions = (headers: Record<string, string>): Call => ({
    service: "auth",
    rpc: "ListSessions",
    rest: { method: "GET", path: "/v1/auth/sessions" },
    body: {},
    headers,
  });

  describe("management token (Account interface)", () => {
    it("no Authorization header: MISSING_MANAGEMENT_TOKEN", () =>
      overAllProtocols(server, listProjects({}), { ...UNAUTHENTICATED, reason: "MISSING_MANAGEMENT_TOKEN" }));
    it("an unknown token: INVALID_MANAGEMENT_TOKEN", () =>
      overAllProtocols(server, listProjects({ authorization: "Bearer gmt_not-a-real-token" }), {
        ...UNAUTHENTICATED,
        reason: "INVALID_MANAGEMENT_TOKEN",
      }));
    it("an expired token: INVALID_MANAGEMENT_TOKEN", () =>
      overAllProtocols(server, listProjects({ authorization: `Bearer ${expiredToken}` }), {
        ...UNAUTHENTICATED,
        reason: "INVALID_MANAGEMENT_TOKEN",
      }));
    it("a developer calling an admin RPC: ROLE_REQUIRED", () =>
      overAllProtocols(server, deleteProject({ authorization: `Bearer ${developerToken}` }), {
        ...PERMISSION_DENIED,
        reason: "ROLE_REQUIRED",
      }));
    it("an admin passes the credential check and reaches the RPC", () =>
      overAllProtocols(server, deleteProject({ authorization: `Bearer ${adminToken}` }), {
        ...NOT_FOUND,
        reason: "PROJECT_NOT_FOUND",
      }));
    it("a developer passes for RPCs open to developers", () =>
      succeedsOverAllProtocols(server, listProjects({ authorization: `Bearer ${developerToken}` })));
    it("an API key is not a management token", () =>
      overAllProtocols(server, listProjects({ authorization: `Bearer ${fullKey}`, "x-service-key": fullKey }), {
        ...UNAUTHENTICATED,
        reason: "INVALID_MANAGEMENT_TOKEN",
      }));
  });

  describe("API key (Authentication interface)", () => {
    it("no X-Service-Key: MISSING_API_KEY", () =>
      overAllProtocols(server, authLogin({}), { ...UNAUTHENTICATED, reason: "MISSING_API_KEY" }));
    it("an unknown key: INVALID_API_KEY", () =>
      overAllProtocols(server, authLogin({ "x-service-key": "gk_unknown" }), {
        ...UNAUTHENTICATED,
        reason: "INVALID_API_KEY",
      }));
    it("a revoked key fails at once: INVALID_API_KEY", () =>
      overAllProtocols(server, authLogin({ "x-service-key": revokedKey }), {
        ...UNAUTHENTICATED,
        reason: "INVALID_API_KEY",
      }));
    it("an expired key: INVALID_API_KEY", () =>
      overAllProtocols(server, authLogin({ "x-service-key": expiredKey }), {
        ...UNAUTHENTICATED,
        reason: "INVALID_API_KEY",
      }));
    it("a key of a deleted project: INVALID_API_KEY", () =>
      overAllProtocols(server, authLogin({ "x-service-key": deletedProjectKey }), {
        ...UNAUTHENTICATED,
        reason: "INVALID_API_KEY",
      }));
    it("a management token is not an API key", () =>
      overAllProtocols(server, authLogin({ "x-service-key": adminToken }), {
        ...UNAUTHENTICATED,
        reason: "INVALID_API_KEY",
      }));
    it("a key without the RPC's scope: SCOPE_REQUIRED", () =>
      overAllProtocols(server, authLogin({ "x-service-key": readOnlyKey }), {
        ...PERMISSION_DENIED,
        reason: "SCOPE_REQUIRED",
      }));
    it("a key with the scope reaches the RPC (which then judges the password)", () =>
      overAllProtocols(server, authLogin({ "x-service-key": fullKey }), {
        ...UNAUTHENTICATED,
        reason: "INVALID_CREDENTIALS",
      }));
  });

  describe("user access token (beside the API key)", () => {
    it("no access token where one is required: MISSING_ACCESS_TOKEN", () =>
      overAllProtocols(server, listSessions({ "x-service-key": fullKey }), {
        ...UNAUTHENTICATED,
        reason: "MISSING_ACCESS_TOKEN",
      }));
    it("a token that is not a valid access token: INVALID_ACCESS_TOKEN", () =>
      overAllProtocols(
        server,
        listSessions({ "x-service-key": fullKey, authorization: "Bearer eyJhbGciOiJub25lIn0.e30." }),
        {
          ...UNAUTHENTICATED,
          reason: "INVALID_ACCESS_TOKEN",
        },
      ));
    it("the API key is checked before the access token", () =>
      overAllProtocols(server, listSessions({ authorization: "Bearer whatever" }), {
        ...UNAUTHENTICATED,
        reason: "MISSING_API_KEY",
      }));
  });

  it("credentials are checked before input is validated", async () => {
    const res = await http(`${server.url}/v1/auth/signup`, { body: { email: "not-an-email", password: "x" } });
    expect(res.status).toBe(401);
    expect(res.body.reason).toBe("MISSING_API_KEY");
  });
});
