import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grpcCall, grpcClient } from "../helpers/clients.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { injectConnect } from "../helpers/inject.js";

describe("signup, VerifyToken and JWKS", () => {
  let server: TestServer;
  let app: AuthFixture;
  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
  });
  afterAll(() => server?.stop());

  it("signup answers a token response whose access token verifies offline against the JWKS", async () => {
    const { email, body } = await app.signup("New.User@Example.com");
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect(body.refresh_token).toMatch(/^grt_/);
    expect(body.user).toMatchObject({
      email: "New.User@Example.com",
      email_verified: false,
      mfa_enabled: false,
      mfa_methods: [],
      disabled: false,
      metadata: {},
    });
    expect(body.user.id).toMatch(/^usr_/);
    expect(body).not.toHaveProperty("mfa_token");
    const header = decodeProtectedHeader(body.access_token);
    expect(header).toMatchObject({ alg: "ES256", typ: "JWT" });
    expect(typeof header.kid).toBe("string");
    const jwks = createRemoteJWKSet(new URL(`${server.url}/v1/auth/${app.loginId}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(body.access_token, jwks, {
      issuer: `http://localhost:0/v1/auth/${app.loginId}`,
      audience: app.projectId,
    });
    expect(payload).toMatchObject({ sub: body.user.id, email, project_id: app.projectId, amr: ["pwd"] });
    expect(payload.sid).toMatch(/^sess_/);
    expect(payload.exp! - payload.iat!).toBe(3600);
  });

  it("a duplicate email (any case) is EMAIL_EXISTS; a common password is WEAK_PASSWORD", async () => {
    const { email } = await app.signup();
    const again = await app.call("POST", "/v1/auth/signup", {
      email: email.toUpperCase(),
      password: "another fine passphrase",
    });
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe("EMAIL_EXISTS");
    const weak = await app.call("POST", "/v1/auth/signup", { email: "weak@example.com", password: "Password123" });
    expect(weak.status).toBe(400);
    expect(weak.body.reason).toBe("WEAK_PASSWORD");
  });

  it("signup stores what it answers; a refused duplicate leaves the first user with its one session", async () => {
    const { email, body } = await app.signup();
    const stored = await app.call("GET", `/v1/auth/users/${body.user.id}`);
    expect(stored.status).toBe(200);
    // GetUser adds the linked SSO identities and the passkeys to the user of the token response.
    expect(stored.body).toEqual({ ...body.user, identities: [], passkeys: [] });
    expect(body.user.last_login_at).toBe(body.user.created_at);
    const again = await app.call("POST", "/v1/auth/signup", { email, password: "another fine passphrase" });
    expect(again.body.reason).toBe("EMAIL_EXISTS");
    const sessions = await app.call("GET", "/v1/auth/sessions", undefined, body.access_token);
    expect(sessions.body.data.map((s: { id: string }) => s.id)).toEqual([
      JSON.parse(Buffer.from(body.access_token.split(".")[1], "base64url").toString()).sid,
    ]);
    const login = await app.call("POST", "/v1/auth/login", { email, password: "a sturdy passphrase 1" });
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(body.user.id);
  });

  it("VerifyToken: valid with claims over REST and gRPC; garbage is valid: false", async () => {
    const { body } = await app.signup();
    const rest = await app.call("POST", "/v1/auth/token/verify", { token: body.access_token });
    expect(rest.status).toBe(200);
    expect(rest.body.valid).toBe(true);
    expect(rest.body.claims).toMatchObject({
      sub: body.user.id,
      project_id: app.projectId,
      aud: app.projectId,
      amr: ["pwd"],
    });
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "VerifyToken",
      { token: body.access_token },
      { "x-service-key": app.key },
    );
    expect(viaGrpc.response.valid).toBe(true);
    const garbage = await app.call("POST", "/v1/auth/token/verify", { token: "not.a.jwt" });
    expect(garbage.body).toEqual({ valid: false });
  });

  it("signup over gRPC and Connect answers the same token response", async () => {
    const email = `grpc-${Date.now()}@example.com`;
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "Signup",
      { email, password: "a sturdy passphrase 2", metadata: { fields: {} } },
      { "x-service-key": app.key },
    );
    expect(viaGrpc.error).toBeUndefined();
    expect(viaGrpc.response.token_type).toBe("Bearer");
    expect(viaGrpc.response.user.email).toBe(email);
    const viaConnect = await injectConnect(
      server.handle,
      "auth",
      "Signup",
      { email: `c-${email}`, password: "a sturdy passphrase 3" },
      { "x-service-key": app.key },
    );
    expect(viaConnect.status).toBe(200);
    expect(viaConnect.body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect(viaConnect.body.refresh_token).toMatch(/^grt_/);
    // A token response carries no challenge fields (mfa_methods, a repeated field, is written empty).
    expect(viaConnect.body).not.toHaveProperty("mfa_token");
    expect(viaConnect.body).not.toHaveProperty("mfa_required");
  });

  it("bad input names the field; a long password is kept whole", async () => {
    const tooLong = await app.call("POST", "/v1/auth/signup", { email: "long@example.com", password: "x".repeat(129) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.violations).toEqual([{ field: "password", description: "must be at most 128 characters" }]);
    const bigMetadata = await app.call("POST", "/v1/auth/signup", {
      email: "meta@example.com",
      password: "a sturdy passphrase 4",
      metadata: { blob: "m".repeat(17 * 1024) },
    });
    expect(bigMetadata.status).toBe(400);
    expect(bigMetadata.body.violations[0].field).toBe("metadata");
    // 128 characters, never truncated: the same first 127 characters are not the password.
    const password = "p".repeat(100) + "unique-tail-ABCDEFGHIJKLMNOPQRSTUVWXYZ".slice(0, 28);
    const { email } = await app.signup(undefined, password);
    const ok = await app.call("POST", "/v1/auth/login", { email, password });
    expect(ok.status).toBe(200);
    const prefix = await app.call("POST", "/v1/auth/login", { email, password: password.slice(0, 127) });
    expect(prefix.body.reason).toBe("INVALID_CREDENTIALS");
  });

  it("metadata is stored as given", async () => {
    const res = await app.call("POST", "/v1/auth/signup", {
      email: `m-${Date.now()}@example.com`,
      password: "a sturdy passphrase 5",
      metadata: { plan: "pro", seats: 3, tags: ["a"] },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.metadata).toEqual({ plan: "pro", seats: 3, tags: ["a"] });
  });

  it("the same email in another project is a different user", async () => {
    const email = `twice-${Date.now()}@example.com`;
    const other = await authFixture(server);
    const first = await app.signup(email);
    const second = await other.signup(email);
    expect(second.body.user.id).not.toBe(first.body.user.id);
  });

  it("a token of another project is not valid here", async () => {
    const other = await authFixture(server);
    const { body } = await other.signup();
    const res = await app.call("POST", "/v1/auth/token/verify", { token: body.access_token });
    expect(res.body.valid).toBe(false);
  });

  it("the JWKS of an unknown login id is 404", async () => {
    const res = await fetch(`${server.url}/v1/auth/lp_0000000000000000000000000z/.well-known/jwks.json`);
    expect(res.status).toBe(404);
  });
});
