import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grpcCall, grpcClient } from "../helpers/clients.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";

// Threats: telling registered emails from unregistered ones, and signing in to a locked account.
describe("login", () => {
  let server: TestServer;
  let app: AuthFixture;
  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
  });
  afterAll(() => server?.stop());

  it("answers tokens for the right password, whatever the email's case", async () => {
    const { email, password } = await app.signup();
    const ok = await app.call("POST", "/v1/auth/login", { email: `  ${email.toUpperCase()}  `.trim(), password });
    expect(ok.status).toBe(200);
    expect(decodeJwt(ok.body.access_token).sub).toBe(ok.body.user.id);
    expect(ok.body.user.last_login_at).toBeTruthy();
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "Login",
      { email, password },
      { "x-service-key": app.key },
    );
    expect(viaGrpc.error).toBeUndefined();
    expect(viaGrpc.response.refresh_token).toMatch(/^grt_/);
    // Each sign-in is its own session.
    expect(decodeJwt(viaGrpc.response.access_token).sid).not.toBe(decodeJwt(ok.body.access_token).sid);
  });

  it("an unknown email and a wrong password answer the same", async () => {
    const { email, password } = await app.signup();
    const wrong = await app.call("POST", "/v1/auth/login", { email, password: "not the password" });
    const unknown = await app.call("POST", "/v1/auth/login", { email: "nobody@example.com", password });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect({ ...wrong.body, request_id: 0 }).toEqual({ ...unknown.body, request_id: 0 });
    expect(wrong.body.reason).toBe("INVALID_CREDENTIALS");
  });

  it("a disabled user learns it only after the right password", async () => {
    const { email, password, body } = await app.signup();
    const disabled = await app.call("PATCH", `/v1/auth/users/${body.user.id}`, { disabled: true });
    expect(disabled.status).toBe(200);
    const right = await app.call("POST", "/v1/auth/login", { email, password });
    expect(right.status).toBe(403);
    expect(right.body.reason).toBe("USER_DISABLED");
    const wrong = await app.call("POST", "/v1/auth/login", { email, password: "not the password" });
    expect(wrong.body.reason).toBe("INVALID_CREDENTIALS");
  });
});

describe("login upgrades the hash when the argon2 parameters changed", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  it("stores a hash with the new parameters after a successful login", async () => {
    const first = await startTestServer({ ARGON2_MEMORY_KIB: "1024", ARGON2_TIME_COST: "1" }, database);
    const app = await authFixture(first);
    const { email, password, body } = await app.signup();
    const hashOf = async (s: TestServer) =>
      (
        await s.deps.db.dataSource.query<Array<{ password_hash: string }>>(
          "SELECT password_hash FROM users WHERE id = $1",
          [body.user.id],
        )
      )[0].password_hash;
    expect(await hashOf(first)).toContain("m=1024,t=1,p=1");
    await first.close();
    const second = await startTestServer({ ARGON2_MEMORY_KIB: "2048", ARGON2_TIME_COST: "2" }, database);
    try {
      const res = await fetch(`${second.url}/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-service-key": app.key },
        body: JSON.stringify({ email, password }),
      });
      expect(res.status).toBe(200);
      expect(await hashOf(second)).toContain("m=2048,t=2,p=1");
    } finally {
      await second.close();
    }
  });
});
