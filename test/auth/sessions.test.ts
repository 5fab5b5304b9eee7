import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grpcCall, grpcClient } from "../helpers/clients.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";

describe("sessions: list, revoke one, revoke all", () => {
  let server: TestServer;
  let app: AuthFixture;
  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
  });
  afterAll(() => server?.stop());

  /** A user with three sessions (signup, then two logins), oldest first. */
  async function userWithThreeSessions() {
    const { email, password, body } = await app.signup();
    const tokens: string[] = [body.access_token];
    for (const agent of ["Agent/2", "Agent/3"]) {
      const res = await app.call("POST", "/v1/auth/login", { email, password }, undefined, { "user-agent": agent });
      expect(res.status).toBe(200);
      tokens.push(res.body.access_token);
    }
    return {
      email,
      password,
      userId: body.user.id as string,
      tokens,
      sids: tokens.map((t) => decodeJwt(t).sid as string),
    };
  }

  const verify = async (token: string) => (await app.call("POST", "/v1/auth/token/verify", { token })).body.valid;

  it("ListSessions answers the caller's live sessions, newest first, the current one marked", async () => {
    const u = await userWithThreeSessions();
    const stranger = await app.signup();
    const res = await app.call("GET", "/v1/auth/sessions", undefined, u.tokens[1]);
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: any) => s.id)).toEqual([...u.sids].reverse());
    expect(res.body.data.map((s: any) => s.is_current)).toEqual([false, true, false]);
    const second = res.body.data[1];
    expect(second).toMatchObject({ user_agent: "Agent/2", ip_address: "127.0.0.1" });
    expect(Date.parse(second.created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(second.last_active_at)).toBeGreaterThanOrEqual(Date.parse(second.created_at));
    expect(res.body.data.map((s: any) => s.id)).not.toContain(decodeJwt(stranger.body.access_token).sid);

    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "ListSessions",
      {},
      { "x-service-key": app.key, authorization: `Bearer ${u.tokens[2]}` },
    );
    expect(viaGrpc.error).toBeUndefined();
    expect(viaGrpc.response.data.map((s: any) => [s.id, s.is_current])).toEqual([
      [u.sids[2], true],
      [u.sids[1], false],
      [u.sids[0], false],
    ]);
  });

  it("ListSessions needs the user's access token", async () => {
    const none = await app.call("GET", "/v1/auth/sessions");
    expect(none.status).toBe(401);
    expect(none.body.reason).toBe("MISSING_ACCESS_TOKEN");
  });

  it("RevokeSession ends one own session: its access token stops verifying, the others keep working", async () => {
    const u = await userWithThreeSessions();
    const res = await app.call("DELETE", `/v1/auth/sessions/${u.sids[0]}`, undefined, u.tokens[2]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: true, session_id: u.sids[0] });
    expect(await verify(u.tokens[0])).toBe(false);
    const asBearer = await app.call("GET", "/v1/auth/sessions", undefined, u.tokens[0]);
    expect(asBearer.status).toBe(401);
    expect(asBearer.body.reason).toBe("INVALID_ACCESS_TOKEN");
    expect(await verify(u.tokens[1])).toBe(true);
    const list = await app.call("GET", "/v1/auth/sessions", undefined, u.tokens[2]);
    expect(list.body.data.map((s: any) => s.id)).toEqual([u.sids[2], u.sids[1]]);

    const again = await app.call("DELETE", `/v1/auth/sessions/${u.sids[0]}`, undefined, u.tokens[2]);
    expect({ status: again.status, body: again.body }).toEqual({
      status: 200,
      body: { revoked: false, session_id: u.sids[0] },
    });
  });

  it("RevokeSession: another user's session or an unknown id is SESSION_NOT_FOUND and changes nothing", async () => {
    const u = await userWithThreeSessions();
    const other = await app.signup();
    const otherSid = decodeJwt(other.body.access_token).sid as string;
    const foreign = await app.call("DELETE", `/v1/auth/sessions/${otherSid}`, undefined, u.tokens[0]);
    expect(foreign.status).toBe(404);
    expect(foreign.body.reason).toBe("SESSION_NOT_FOUND");
    expect(await verify(other.body.access_token)).toBe(true);
    const unknown = await app.call("DELETE", "/v1/auth/sessions/sess_doesnotexist", undefined, u.tokens[0]);
    expect(unknown.status).toBe(404);
    expect(unknown.body.reason).toBe("SESSION_NOT_FOUND");

    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "RevokeSession",
      { id: otherSid },
      { "x-service-key": app.key, authorization: `Bearer ${u.tokens[0]}` },
    );
    expect(viaGrpc.error?.code).toBe(5);
    expect(viaGrpc.reason).toBe("SESSION_NOT_FOUND");
  });

  it("RevokeSession of the current session signs the caller out", async () => {
    const u = await userWithThreeSessions();
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "RevokeSession",
      { id: u.sids[1] },
      { "x-service-key": app.key, authorization: `Bearer ${u.tokens[1]}` },
    );
    expect(viaGrpc.response).toEqual({ revoked: true, session_id: u.sids[1] });
    expect(await verify(u.tokens[1])).toBe(false);
    expect((await app.call("GET", "/v1/auth/sessions", undefined, u.tokens[1])).status).toBe(401);
  });

  it("RevokeAllSessions with keep_current ends the others; without it, the current one too", async () => {
    const u = await userWithThreeSessions();
    const other = await app.signup();
    const kept = await app.call("POST", "/v1/auth/sessions/revoke-all", { keep_current: true }, u.tokens[0]);
    expect(kept.status).toBe(200);
    expect(kept.body).toEqual({ revoked_count: 2 });
    expect([await verify(u.tokens[0]), await verify(u.tokens[1]), await verify(u.tokens[2])]).toEqual([
      true,
      false,
      false,
    ]);
    const list = await app.call("GET", "/v1/auth/sessions", undefined, u.tokens[0]);
    expect(list.body.data.map((s: any) => s.id)).toEqual([u.sids[0]]);

    // A new sign-in, then the default (keep_current false) over gRPC ends both.
    const login = await app.call("POST", "/v1/auth/login", { email: u.email, password: u.password });
    const all = await grpcCall(
      grpcClient(server.port, "auth"),
      "RevokeAllSessions",
      {},
      { "x-service-key": app.key, authorization: `Bearer ${u.tokens[0]}` },
    );
    expect(all.response).toEqual({ revoked_count: 2 });
    expect(await verify(u.tokens[0])).toBe(false);
    expect(await verify(login.body.access_token)).toBe(false);
    const after = await app.call("POST", "/v1/auth/sessions/revoke-all", {}, u.tokens[0]);
    expect(after.status).toBe(401);
    expect(after.body.reason).toBe("INVALID_ACCESS_TOKEN");
    // Another user's sessions are untouched.
    expect(await verify(other.body.access_token)).toBe(true);
  });

  it("a revoked session stays revoked in the store (its refresh tokens are refused by Refresh)", async () => {
    const u = await userWithThreeSessions();
    await app.call("DELETE", `/v1/auth/sessions/${u.sids[1]}`, undefined, u.tokens[0]);
    const rows = await server.deps.db.dataSource.query(
      `SELECT id, revoked_at FROM sessions WHERE user_id = $1 ORDER BY created_at`,
      [u.userId],
    );
    expect(rows.map((r: any) => [r.id, r.revoked_at !== null])).toEqual([
      [u.sids[0], false],
      [u.sids[1], true],
      [u.sids[2], false],
    ]);
  });
});

describe("session ip_address and TRUSTED_PROXIES", () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop();
  });

  async function ipSeen(env: Record<string, string>) {
    const server = await startTestServer(env);
    servers.push(server);
    const app = await authFixture(server);
    const { email, password } = await app.signup();
    const login = await app.call("POST", "/v1/auth/login", { email, password }, undefined, {
      "x-forwarded-for": "198.51.100.23, 203.0.113.7",
      "user-agent": "Mozilla/5.0 (Proxy test)",
    });
    expect(login.status).toBe(200);
    const list = await app.call("GET", "/v1/auth/sessions", undefined, login.body.access_token);
    const current = list.body.data.find((s: any) => s.is_current);
    expect(current.user_agent).toBe("Mozilla/5.0 (Proxy test)");
    return current.ip_address as string;
  }

  it("X-Forwarded-For is believed only from a trusted proxy", async () => {
    // Behind a trusted proxy the nearest untrusted hop (read from the right) is the client.
    expect(await ipSeen({ TRUSTED_PROXIES: "127.0.0.1" })).toBe("203.0.113.7");
    // Without trusted proxies the header is ignored: the socket's peer is the client.
    expect(await ipSeen({})).toBe("127.0.0.1");
  });
});
