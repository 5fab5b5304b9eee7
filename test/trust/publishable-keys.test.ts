import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthService } from "../../gen/gatehouse/auth/v1/auth_pb.js";
import { expectError } from "../helpers/account.js";
import { connectReason, grpcCall, grpcClient, type HttpAnswer } from "../helpers/clients.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { injectConnect, injectHttp } from "../helpers/inject.js";

// Threat: a key shipped in a web page is read by anyone who opens the page. If that key can
// list, edit or delete users, every visitor is the project's administrator. A publishable key
// must reach only what an end user may do for itself; the admin operations stay with secret
// keys on servers.

// Written out by hand, not read from the descriptors: a wrong annotation must fail this test.
const ADMIN_ONLY = [
  "ListUsers",
  "DeleteUser",
  "CreateUser",
  "InviteUser",
  "ListUserSessions",
  "RevokeUserSession",
  "RevokeAllUserSessions",
];
const WITH_USER_TOKEN = [
  "ChangePassword",
  "UnenrollMfa",
  "RegenerateRecoveryCodes",
  "GetUser",
  "UpdateUser",
  "ListSessions",
  "RevokeAllSessions",
  "RevokeSession",
  "ListPasskeys",
  "RenamePasskey",
  "DeletePasskey",
  "ListAuthorizedApps",
  "RevokeAuthorizedApp",
  "ListIdentities",
  "UnlinkIdentity",
];
const END_USER = [
  "Signup",
  "Login",
  "Refresh",
  "VerifyToken",
  "RevokeToken",
  "RequestPasswordReset",
  "ResetPassword",
  "VerifyEmail",
  "SendOtp",
  "VerifyOtp",
  "SendMagicLink",
  "VerifyMagicLink",
  "SsoAuthorize",
  "SsoExchange",
  "StartMfaEnrollment",
  "VerifyMfa",
  "GetBotChallenge",
  "StartPasskeyRegistration",
  "FinishPasskeyRegistration",
  "StartPasskeySignIn",
  "FinishPasskeySignIn",
];
/** Bodies that reach the flow: StartPasskeyRegistration has no required field, and without a token its flow asks for one. */
const END_USER_BODIES: Record<string, object> = { StartPasskeyRegistration: { mfaToken: "gmfa_unknown" } };

describe("publishable and secret API keys", () => {
  let server: TestServer;
  let app: AuthFixture;
  let admin: Record<string, string>;
  let publishable: string;
  /** A REST call to the Authentication interface with the publishable key. */
  let page: (method: string, path: string, body?: unknown, bearer?: string) => Promise<HttpAnswer>;

  beforeAll(async () => {
    server = await sharedTestServer();
    // Publishable signups answer tokens here (test/auth/signup-confirmation.test.ts covers the default).
    app = await authFixture(server, { revealEmailExists: true });
    admin = await app.admin();
    const created = await injectHttp(server.handle, "/v1/api-keys", {
      headers: admin,
      body: { project_id: app.projectId, label: "web", kind: "publishable" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    publishable = created.body.key;
    page = (method, path, body, bearer) =>
      injectHttp(server.handle, path, {
        method,
        headers: { "x-service-key": publishable, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
        body: method === "GET" || method === "DELETE" ? undefined : (body ?? {}),
      });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("CreateApiKey makes either kind, told apart by prefix, and ListApiKeys shows the kind", async () => {
    const made = await injectHttp(server.handle, "/v1/api-keys", {
      headers: admin,
      body: { project_id: app.projectId, label: "page", kind: "publishable" },
    });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ kind: "publishable", scopes: ["auth:read", "auth:write"] });
    expect(made.body.key).toMatch(/^gpk_/);
    expect(made.body.key_hint).toBe(made.body.key.slice(0, 8));

    // The specification's default stays: a secret key with all four scopes.
    const plain = await injectHttp(server.handle, "/v1/api-keys", {
      headers: admin,
      body: { project_id: app.projectId, label: "server" },
    });
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({
      kind: "secret",
      scopes: ["auth:read", "auth:write", "users:read", "users:write"],
    });
    expect(plain.body.key).toMatch(/^gk_/);

    const listed = await injectHttp(server.handle, `/v1/api-keys?project_id=${app.projectId}&limit=100`, {
      headers: admin,
    });
    expect(listed.status).toBe(200);
    const kinds = Object.fromEntries(listed.body.data.map((k: any) => [k.id, k.kind]));
    expect(kinds[made.body.id]).toBe("publishable");
    expect(kinds[plain.body.id]).toBe("secret");
    expect(listed.body.data.every((k: any) => k.key === undefined)).toBe(true);
  });

  it("refuses an unknown kind and admin scopes on a publishable key, naming the field", async () => {
    const bogus = await injectHttp(server.handle, "/v1/api-keys", {
      headers: admin,
      body: { project_id: app.projectId, label: "x", kind: "admin" },
    });
    expectError(bogus, 400, "VALIDATION_FAILED");
    expect(bogus.body.violations.map((v: any) => v.field)).toEqual(["kind"]);
    const scoped = await injectHttp(server.handle, "/v1/api-keys", {
      headers: admin,
      body: { project_id: app.projectId, label: "x", kind: "publishable", scopes: ["auth:read", "users:read"] },
    });
    expectError(scoped, 400, "VALIDATION_FAILED");
    expect(scoped.body.violations).toEqual([{ field: "scopes", description: expect.stringContaining("users:read") }]);
  });

  it("the lists above name every Auth RPC exactly once", () => {
    const listed = [...ADMIN_ONLY, ...WITH_USER_TOKEN, ...END_USER].sort();
    expect(listed).toEqual(AuthService.methods.map((m) => m.name).sort());
  });

  it("over Connect, every admin RPC refuses a publishable key and every self RPC wants the user's token", async () => {
    for (const name of ADMIN_ONLY) {
      const res = await injectConnect(server.handle, "auth", name, { id: "usr_x" }, { "x-service-key": publishable });
      expect({ name, status: res.status, reason: connectReason(res.body) }).toEqual({
        name,
        status: 403,
        reason: "SCOPE_REQUIRED",
      });
      expect(res.body.message).toContain("secret key");
    }
    for (const name of WITH_USER_TOKEN) {
      const res = await injectConnect(server.handle, "auth", name, {}, { "x-service-key": publishable });
      expect({ name, status: res.status, reason: connectReason(res.body) }).toEqual({
        name,
        status: 401,
        reason: "MISSING_ACCESS_TOKEN",
      });
    }
    for (const name of END_USER) {
      // Empty bodies fail validation or the flow's own checks, never the key's kind.
      const body = END_USER_BODIES[name] ?? {};
      const res = await injectConnect(server.handle, "auth", name, body, { "x-service-key": publishable });
      expect({ name, reason: connectReason(res.body) }).not.toMatchObject({
        reason: expect.stringMatching(/SCOPE_REQUIRED|MISSING_ACCESS_TOKEN/),
      });
    }
  });

  it("a page signs up, signs in, refreshes and manages its own user and sessions, and nothing more", async () => {
    const email = `page-${Date.now()}@example.com`;
    const password = "a sturdy passphrase 1";
    const signup = await page("POST", "/v1/auth/signup", { email, password });
    expect(signup.status).toBe(200);
    const login = await page("POST", "/v1/auth/login", { email, password });
    expect(login.status).toBe(200);
    const refreshed = await page("POST", "/v1/auth/token/refresh", { refresh_token: login.body.refresh_token });
    expect(refreshed.status).toBe(200);
    const token = refreshed.body.access_token as string;
    const verified = await page("POST", "/v1/auth/token/verify", { token });
    expect(verified.body.valid).toBe(true);

    const me = signup.body.user.id as string;
    const self = await page("GET", `/v1/auth/users/${me}`, undefined, token);
    expect(self.status).toBe(200);
    expect(self.body.email).toBe(email);
    const edited = await page("PATCH", `/v1/auth/users/${me}`, { metadata: { theme: "dark" } }, token);
    expect(edited.status).toBe(200);
    expect(edited.body.metadata).toEqual({ theme: "dark" });
    const sessions = await page("GET", "/v1/auth/sessions", undefined, token);
    expect(sessions.status).toBe(200);
    expect(sessions.body.data.length).toBe(2);

    // Another user, the admin-only field, and the admin RPCs stay out of reach.
    const other = await app.signup();
    expectError(await page("GET", `/v1/auth/users/${other.body.user.id}`, undefined, token), 403, "ADMIN_REQUIRED");
    expectError(
      await page("PATCH", `/v1/auth/users/${me}`, { app_metadata: { plan: "pro" } }, token),
      403,
      "ADMIN_REQUIRED",
    );
    expectError(await page("GET", `/v1/auth/users/${other.body.user.id}`), 401, "MISSING_ACCESS_TOKEN");
    expectError(
      await page("PATCH", `/v1/auth/users/${other.body.user.id}`, { metadata: { x: 1 } }),
      401,
      "MISSING_ACCESS_TOKEN",
    );
    expectError(await page("GET", "/v1/auth/users"), 403, "SCOPE_REQUIRED");
    expectError(await page("GET", "/v1/auth/users", undefined, token), 403, "SCOPE_REQUIRED");
    expectError(await page("DELETE", `/v1/auth/users/${other.body.user.id}`), 403, "SCOPE_REQUIRED");
    expectError(await page("DELETE", `/v1/auth/users/${me}`, undefined, token), 403, "SCOPE_REQUIRED");

    // The users are untouched, as the secret key sees them.
    const check = await app.call("GET", `/v1/auth/users/${other.body.user.id}`);
    expect(check.status).toBe(200);
    expect(check.body.app_metadata).toEqual({});
  });

  it("over gRPC, a publishable key is refused ListUsers with SCOPE_REQUIRED while the secret key lists", async () => {
    const client = grpcClient(server.port, "auth");
    try {
      const refused = await grpcCall(client, "ListUsers", {}, { "x-service-key": publishable });
      expect(refused.error?.code).toBe(7); // PERMISSION_DENIED
      expect(refused.reason).toBe("SCOPE_REQUIRED");
      const listed = await grpcCall(client, "ListUsers", {}, { "x-service-key": app.key });
      expect(listed.error).toBeUndefined();
      expect(listed.response.data.length).toBeGreaterThan(0);
    } finally {
      client.close();
    }
  });
});
