import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, connectReason, grpcCall, grpcClient, grpcReason, http } from "../helpers/clients.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";

// Threat: support cannot end a stolen session without disabling the whole account, or an admin
// view of sessions reaches another user's or another project's. ListUserSessions,
// RevokeUserSession and RevokeAllUserSessions are the administrator's: an API key with the
// users scopes, or the console's credential for a member; never a user token.

describe("a user's sessions, as the project's administrator", () => {
  let server: TestServer;
  let app: AuthFixture;
  let other: AuthFixture;
  beforeAll(async () => {
    server = await sharedTestServer();
    [app, other] = await Promise.all([authFixture(server), authFixture(server)]);
  });
  afterAll(() => server?.stop());

  /** A user signed in three times (signup and two logins): its tokens, oldest first. */
  async function userWithSessions() {
    const { email, password, body } = await app.signup();
    const answers = [body];
    for (let i = 0; i < 2; i++) answers.push((await app.call("POST", "/v1/auth/login", { email, password })).body);
    return {
      userId: body.user.id as string,
      access: answers.map((a) => a.access_token as string),
      refresh: answers.map((a) => a.refresh_token as string),
      sids: answers.map((a) => decodeJwt(a.access_token).sid as string),
    };
  }

  it("lists the user's live sessions newest first, a page at a time, none current and no one else's", async () => {
    const u = await userWithSessions();
    const stranger = await app.signup();
    const first = await app.call("GET", `/v1/auth/users/${u.userId}/sessions?limit=2`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.map((s: any) => s.id)).toEqual([u.sids[2], u.sids[1]]);
    expect(first.body.data.map((s: any) => s.is_current)).toEqual([false, false]);
    expect(first.body.data[0]).toMatchObject({ ip_address: "127.0.0.1", user_agent: "node" });
    const rest = await app.call("GET", `/v1/auth/users/${u.userId}/sessions?limit=2&cursor=${first.body.next_cursor}`);
    expect(rest.body.data.map((s: any) => s.id)).toEqual([u.sids[0]]);
    expect(rest.body).toMatchObject({ has_more: false, next_cursor: "" });
    // A cursor of one user's list does not continue another's.
    const crossed = await app.call(
      "GET",
      `/v1/auth/users/${stranger.body.user.id}/sessions?limit=2&cursor=${first.body.next_cursor}`,
    );
    expect(crossed.body.reason).toBe("INVALID_CURSOR");

    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "ListUserSessions",
      { user_id: u.userId },
      {
        "x-service-key": app.key,
      },
    );
    expect(viaGrpc.error).toBeUndefined();
    expect(viaGrpc.response.data.map((s: any) => s.id)).toEqual([...u.sids].reverse());
  });

  it("revokes one session: its refresh token and access tokens stop at once, the others go on; a repeat answers revoked false", async () => {
    const u = await userWithSessions();
    const revoke = await app.call("DELETE", `/v1/auth/users/${u.userId}/sessions/${u.sids[1]}`);
    expect(revoke.status, JSON.stringify(revoke.body)).toBe(200);
    expect(revoke.body).toEqual({ revoked: true, session_id: u.sids[1] });
    const refresh = await app.call("POST", "/v1/auth/token/refresh", { refresh_token: u.refresh[1] });
    expect(refresh.status).toBe(401);
    expect((await app.call("POST", "/v1/auth/token/verify", { token: u.access[1] })).body.valid).toBe(false);
    expect((await app.call("POST", "/v1/auth/token/verify", { token: u.access[2] })).body.valid).toBe(true);
    expect((await app.call("POST", "/v1/auth/token/refresh", { refresh_token: u.refresh[2] })).status).toBe(200);
    const again = await app.call("DELETE", `/v1/auth/users/${u.userId}/sessions/${u.sids[1]}`);
    expect(again.body).toEqual({ revoked: false, session_id: u.sids[1] });

    const events = await http(
      `${server.url}/v1/audit-events?project_id=${app.projectId}&user_id=${u.userId}&type=session.revoked`,
      { headers: await app.admin() },
    );
    expect(events.body.data.map((e: any) => [e.target_id, e.actor_type])).toEqual([[u.sids[1], "api_key"]]);
  });

  it("revokes all of a user's sessions without disabling the account", async () => {
    const u = await userWithSessions();
    const res = await app.call("POST", `/v1/auth/users/${u.userId}/sessions/revoke-all`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ revoked_count: 3 });
    for (const token of u.refresh)
      expect((await app.call("POST", "/v1/auth/token/refresh", { refresh_token: token })).status).toBe(401);
    expect((await app.call("GET", `/v1/auth/users/${u.userId}/sessions`)).body.data).toEqual([]);
    expect((await app.call("GET", `/v1/auth/users/${u.userId}`)).body.disabled).toBe(false);
  });

  it("refuses another user's session, an unknown or foreign user, a user's own token and a key without the scope", async () => {
    const u = await userWithSessions();
    const stranger = await userWithSessions();
    const crossed = await app.call("DELETE", `/v1/auth/users/${u.userId}/sessions/${stranger.sids[0]}`);
    expect([crossed.status, crossed.body.reason]).toEqual([404, "SESSION_NOT_FOUND"]);
    expect((await app.call("POST", "/v1/auth/token/verify", { token: stranger.access[0] })).body.valid).toBe(true);
    for (const path of ["usr_00000000000000000000000000/sessions", "not-an-id/sessions"]) {
      const res = await app.call("GET", `/v1/auth/users/${path}`);
      expect([res.status, res.body.reason]).toEqual([404, "USER_NOT_FOUND"]);
    }
    // Another project's key names this user: not found, and nothing revoked.
    const foreign = await other.call("POST", `/v1/auth/users/${u.userId}/sessions/revoke-all`, {});
    expect([foreign.status, foreign.body.reason]).toEqual([404, "USER_NOT_FOUND"]);
    const own = await app.call("GET", `/v1/auth/users/${u.userId}/sessions`, undefined, u.access[0]);
    expect([own.status, own.body.reason]).toEqual([403, "ADMIN_REQUIRED"]);
    expect((await app.call("GET", `/v1/auth/users/${u.userId}/sessions`)).body.data).toHaveLength(3);
  });

  it("a member's token with X-Gatehouse-Console lists and revokes over Connect from the console's origin only", async () => {
    const { body } = await app.signup();
    const sid = decodeJwt(body.access_token).sid as string;
    const admin = await app.admin();
    const headers = {
      ...admin,
      "x-gatehouse-console": app.projectId,
      origin: new URL(server.deps.config.publicUrl).origin,
    };
    const listed = await connect(server.url, "auth", "ListUserSessions", { userId: body.user.id }, headers);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.map((s: any) => s.id)).toEqual([sid]);

    const revoked = await connect(server.url, "auth", "RevokeUserSession", { userId: body.user.id, id: sid }, headers);
    expect(revoked.body).toEqual({ revoked: true, session_id: sid });
    expect((await app.call("POST", "/v1/auth/token/refresh", { refresh_token: body.refresh_token })).status).toBe(401);

    const foreign = await connect(
      server.url,
      "auth",
      "ListUserSessions",
      { userId: body.user.id },
      {
        ...headers,
        origin: "https://shop.example.com",
      },
    );
    expect([foreign.status, connectReason(foreign.body)]).toEqual([403, "ORIGIN_NOT_ALLOWED"]);
    const signIn = await connect(server.url, "auth", "Login", { email: "a@example.com", password: "x" }, headers);
    expect([signIn.status, connectReason(signIn.body)]).toEqual([403, "SCOPE_REQUIRED"]);
    // gRPC clients are servers: no Origin, so the console's credential is refused there.
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "ListUserSessions",
      { user_id: body.user.id },
      {
        authorization: admin.authorization,
        "x-gatehouse-console": app.projectId,
      },
    );
    expect(grpcReason(viaGrpc.error!)).toBe("ORIGIN_NOT_ALLOWED");
  });
});
