import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grpcCall, grpcClient, http } from "../helpers/clients.js";
import { ALL_SCOPES, seedApiKey } from "../helpers/seed.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";

// Threat: an API key doing more than its scopes allow, and one project reaching into another
// (its users, or its users' access tokens). API.md section 2, exactly.

const PASSWORD = "a sturdy passphrase 1";
let seq = 0;
const fresh = () => `scope-${Date.now().toString(36)}-${++seq}@example.com`;

interface Case {
  name: string;
  scope: string;
  method: string;
  path: (ctx: { userId: string }) => string;
  body?: (ctx: { userId: string; email: string }) => unknown;
  /** Sends the user's own access token beside the API key. */
  asUser?: boolean;
}

// One row per RPC (or per way of calling it), with the scope API.md section 2 names.
const CASES: Case[] = [
  {
    name: "VerifyToken",
    scope: "auth:read",
    method: "POST",
    path: () => "/v1/auth/token/verify",
    body: () => ({ token: "not.a.jwt" }),
  },
  { name: "ListSessions", scope: "auth:read", method: "GET", path: () => "/v1/auth/sessions", asUser: true },
  {
    name: "Signup",
    scope: "auth:write",
    method: "POST",
    path: () => "/v1/auth/signup",
    body: () => ({ email: fresh(), password: PASSWORD }),
  },
  {
    name: "Login",
    scope: "auth:write",
    method: "POST",
    path: () => "/v1/auth/login",
    body: ({ email }) => ({ email, password: PASSWORD }),
  },
  {
    name: "Refresh",
    scope: "auth:write",
    method: "POST",
    path: () => "/v1/auth/token/refresh",
    body: () => ({ refresh_token: "grt_unknown" }),
  },
  {
    name: "RevokeToken",
    scope: "auth:write",
    method: "POST",
    path: () => "/v1/auth/token/revoke",
    body: () => ({ token: "grt_unknown" }),
  },
  {
    name: "RequestPasswordReset",
    scope: "auth:write",
    method: "POST",
    path: () => "/v1/auth/password/reset-request",
    body: () => ({ email: fresh() }),
  },
  {
    name: "VerifyEmail",
    scope: "auth:write",
    method: "POST",
    path: () => "/v1/auth/email/verify",
    body: () => ({ token: "gev_unknown" }),
  },
  {
    name: "RevokeAllSessions",
    scope: "auth:write",
    method: "POST",
    path: () => "/v1/auth/sessions/revoke-all",
    body: () => ({ keep_current: true }),
    asUser: true,
  },
  { name: "ListUsers", scope: "users:read", method: "GET", path: () => "/v1/auth/users" },
  { name: "GetUser", scope: "users:read", method: "GET", path: ({ userId }) => `/v1/auth/users/${userId}` },
  {
    name: "UpdateUser (admin)",
    scope: "users:write",
    method: "PATCH",
    path: ({ userId }) => `/v1/auth/users/${userId}`,
    body: () => ({ metadata: { by: "admin" } }),
  },
  {
    name: "UpdateUser (self)",
    scope: "auth:write",
    method: "PATCH",
    path: ({ userId }) => `/v1/auth/users/${userId}`,
    body: () => ({ metadata: { by: "self" } }),
    asUser: true,
  },
  {
    name: "DeleteUser",
    scope: "users:write",
    method: "DELETE",
    path: () => "/v1/auth/users/usr_00000000000000000000000000",
  },
];

describe("API key scopes and project isolation", () => {
  let server: TestServer;
  let a: AuthFixture;
  let b: AuthFixture;
  const keyWith = async (app: AuthFixture, scopes: string[]) => {
    const project = await server.deps.db.repos.projects.getByLoginId(app.loginId);
    return (await seedApiKey(server.deps, project!, { scopes })).key;
  };
  const send = (key: string, c: Case, ctx: { userId: string; email: string; token: string }) =>
    http(`${server.url}${c.path(ctx)}`, {
      method: c.method,
      headers: { "x-service-key": key, ...(c.asUser ? { authorization: `Bearer ${ctx.token}` } : {}) },
      body: c.method === "GET" || c.method === "DELETE" ? undefined : (c.body?.(ctx) ?? {}),
    });

  beforeAll(async () => {
    server = await sharedTestServer();
    a = await authFixture(server);
    b = await authFixture(server);
  });
  afterAll(() => server?.stop());

  for (const c of CASES) {
    it(`${c.name}: a key without ${c.scope} is SCOPE_REQUIRED; a key with only ${c.scope} gets past the check`, async () => {
      const { email, body } = await a.signup(fresh());
      const ctx = { userId: body.user.id, email, token: body.access_token };
      const lacking = await send(
        await keyWith(
          a,
          ALL_SCOPES.filter((s) => s !== c.scope),
        ),
        c,
        ctx,
      );
      expect(lacking.status).toBe(403);
      expect(lacking.body.reason).toBe("SCOPE_REQUIRED");
      const only = await send(await keyWith(a, [c.scope]), c, ctx);
      expect(only.body?.reason).not.toBe("SCOPE_REQUIRED");
      expect(only.status).not.toBe(403);
    });
  }

  it("with only the scope, the RPCs implemented here answer normally", async () => {
    const { email, body } = await a.signup(fresh());
    const ctx = { userId: body.user.id, email, token: body.access_token };
    const ok = async (name: string) =>
      send(
        await keyWith(a, [CASES.find((c) => c.name === name)!.scope]),
        CASES.find((c) => c.name === name)!,
        ctx,
      );
    expect((await ok("VerifyToken")).body).toEqual({ valid: false });
    expect((await ok("Login")).status).toBe(200);
    expect((await ok("ListUsers")).status).toBe(200);
    expect((await ok("GetUser")).body.id).toBe(ctx.userId);
    expect((await ok("UpdateUser (admin)")).body.metadata).toEqual({ by: "admin" });
    expect((await ok("UpdateUser (self)")).body.metadata).toEqual({ by: "self" });
    expect((await ok("DeleteUser")).body.reason).toBe("USER_NOT_FOUND");
  });

  it("the scope check holds over gRPC too", async () => {
    const client = grpcClient(server.port, "auth");
    const readOnly = await keyWith(a, ["users:read", "auth:read"]);
    const denied = await grpcCall(
      client,
      "DeleteUser",
      { id: "usr_00000000000000000000000000" },
      { "x-service-key": readOnly },
    );
    expect(denied.error?.code).toBe(7);
    expect(denied.reason).toBe("SCOPE_REQUIRED");
    const listed = await grpcCall(client, "ListUsers", { limit: 1 }, { "x-service-key": readOnly });
    expect(listed.error).toBeUndefined();
  });

  it("a user token of project A used with project B's key is INVALID_ACCESS_TOKEN", async () => {
    const { body } = await a.signup(fresh());
    const token = body.access_token;
    const update = await b.call("PATCH", `/v1/auth/users/${body.user.id}`, { metadata: { x: 1 } }, token);
    expect(update.status).toBe(401);
    expect(update.body.reason).toBe("INVALID_ACCESS_TOKEN");
    const sessions = await b.call("GET", "/v1/auth/sessions", undefined, token);
    expect(sessions.status).toBe(401);
    expect(sessions.body.reason).toBe("INVALID_ACCESS_TOKEN");
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "UpdateUser",
      { id: body.user.id, metadata: { x: 1 } },
      { "x-service-key": b.key, authorization: `Bearer ${token}` },
    );
    expect(viaGrpc.error?.code).toBe(16);
    expect(viaGrpc.reason).toBe("INVALID_ACCESS_TOKEN");
    // In its own project the token is fine.
    expect((await a.call("PATCH", `/v1/auth/users/${body.user.id}`, { metadata: { x: 1 } }, token)).status).toBe(200);
  });

  it("project B's key cannot list, read, update or delete project A's users", async () => {
    const { email, body } = await a.signup(fresh());
    const id = body.user.id;
    for (const [method, payload] of [
      ["GET", undefined],
      ["PATCH", { metadata: { owned: true }, disabled: true }],
      ["DELETE", undefined],
    ] as const) {
      const res = await b.call(method, `/v1/auth/users/${id}`, payload);
      expect(res.status, method).toBe(404);
      expect(res.body.reason, method).toBe("USER_NOT_FOUND");
    }
    const listed = await b.call("GET", `/v1/auth/users?search=${encodeURIComponent(email)}`);
    expect(listed.body.data).toEqual([]);
    const still = await a.call("GET", `/v1/auth/users/${id}`);
    expect(still.status).toBe(200);
    expect(still.body).toMatchObject({ email, disabled: false, metadata: {} });
    // A cursor of A's list is no cursor for B's.
    await a.signup(fresh());
    const page = await a.call("GET", "/v1/auth/users?limit=1");
    const replayed = await b.call("GET", `/v1/auth/users?limit=1&cursor=${page.body.next_cursor}`);
    expect(replayed.status).toBe(400);
    expect(replayed.body.reason).toBe("INVALID_CURSOR");
  });

  it("the same email signs up independently in two projects", async () => {
    const email = fresh();
    const inA = await a.call("POST", "/v1/auth/signup", { email, password: PASSWORD });
    const inB = await b.call("POST", "/v1/auth/signup", { email, password: "another sturdy passphrase" });
    expect(inA.status).toBe(200);
    expect(inB.status).toBe(200);
    expect(inA.body.user.id).not.toBe(inB.body.user.id);
    expect((await a.call("POST", "/v1/auth/login", { email, password: PASSWORD })).body.user.id).toBe(inA.body.user.id);
    expect((await b.call("POST", "/v1/auth/login", { email, password: PASSWORD })).body.reason).toBe(
      "INVALID_CREDENTIALS",
    );
    expect(
      (await b.call("POST", "/v1/auth/login", { email, password: "another sturdy passphrase" })).body.user.id,
    ).toBe(inB.body.user.id);
    // Deleting one leaves the other.
    expect((await b.call("DELETE", `/v1/auth/users/${inB.body.user.id}`)).body.deleted).toBe(true);
    expect((await a.call("GET", `/v1/auth/users/${inA.body.user.id}`)).status).toBe(200);
  });
});
