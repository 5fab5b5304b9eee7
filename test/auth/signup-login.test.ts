import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grpcCall, grpcClient } from "../helpers/clients.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { authFixture, type AuthFixture } from "./helpers.js";

describe("signup, login, verification and JWKS", () => {
  let server: TestServer;
  let app: AuthFixture;
  beforeAll(async () => {
    server = await startTestServer();
    app = await authFixture(server);
  });
  afterAll(() => server?.stop());

  it("signup answers a token response whose access token verifies offline against the JWKS", async () => {
    const { email, body } = await app.signup("New.User@Example.com");
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect(body.refresh_token).toMatch(/^grt_/);
    expect(body.user).toMatchObject({ email: "New.User@Example.com", email_verified: false, mfa_enabled: false, mfa_methods: [], disabled: false, metadata: {} });
    expect(body.user.id).toMatch(/^usr_/);
    expect(body).not.toHaveProperty("mfa_token");
    const header = decodeProtectedHeader(body.access_token);
    expect(header).toMatchObject({ alg: "ES256", typ: "JWT" });
    expect(typeof header.kid).toBe("string");
    const jwks = createRemoteJWKSet(new URL(`${server.url}/v1/auth/${app.loginId}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(body.access_token, jwks, { issuer: `http://localhost:0/v1/auth/${app.loginId}`, audience: app.projectId });
    expect(payload).toMatchObject({ sub: body.user.id, email, project_id: app.projectId, amr: ["pwd"] });
    expect(payload.sid).toMatch(/^sess_/);
    expect(payload.exp! - payload.iat!).toBe(3600);
  });

  it("a duplicate email (any case) is EMAIL_EXISTS; a common password is WEAK_PASSWORD", async () => {
    const { email } = await app.signup();
    const again = await app.call("POST", "/v1/auth/signup", { email: email.toUpperCase(), password: "another fine passphrase" });
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe("EMAIL_EXISTS");
    const weak = await app.call("POST", "/v1/auth/signup", { email: "weak@example.com", password: "Password123" });
    expect(weak.status).toBe(400);
    expect(weak.body.reason).toBe("WEAK_PASSWORD");
  });

  it("login answers tokens; unknown email and wrong password answer the same", async () => {
    const { email, password } = await app.signup();
    const ok = await app.call("POST", "/v1/auth/login", { email: email.toUpperCase(), password });
    expect(ok.status).toBe(200);
    expect(decodeJwt(ok.body.access_token).sub).toBe(ok.body.user.id);
    expect(ok.body.user.last_login_at).toBeTruthy();
    const wrong = await app.call("POST", "/v1/auth/login", { email, password: "not the password" });
    const unknown = await app.call("POST", "/v1/auth/login", { email: "nobody@example.com", password });
    expect(wrong.status).toBe(401);
    expect({ ...wrong.body, request_id: 0 }).toEqual({ ...unknown.body, request_id: 0 });
    expect(wrong.body.reason).toBe("INVALID_CREDENTIALS");
  });

  it("VerifyToken: valid with claims over REST and gRPC; garbage is valid: false", async () => {
    const { body } = await app.signup();
    const rest = await app.call("POST", "/v1/auth/token/verify", { token: body.access_token });
    expect(rest.status).toBe(200);
    expect(rest.body.valid).toBe(true);
    expect(rest.body.claims).toMatchObject({ sub: body.user.id, project_id: app.projectId, aud: app.projectId, amr: ["pwd"] });
    const viaGrpc = await grpcCall(grpcClient(server.port, "auth"), "VerifyToken", { token: body.access_token }, { "x-service-key": app.key });
    expect(viaGrpc.response.valid).toBe(true);
    const garbage = await app.call("POST", "/v1/auth/token/verify", { token: "not.a.jwt" });
    expect(garbage.body).toEqual({ valid: false });
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
