import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/crypto/tokens.js";
import { grpcCall, grpcClient } from "../helpers/clients.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";

describe("Refresh", () => {
  let server: TestServer;
  let app: AuthFixture;
  const sql = (text: string, params: unknown[] = []) => server.deps.db.dataSource.query(text, params);
  const refresh = (token: string) => app.call("POST", "/v1/auth/token/refresh", { refresh_token: token });
  const verify = async (token: string) =>
    (await app.call("POST", "/v1/auth/token/verify", { token })).body.valid as boolean;
  const expectUnauthenticated = (res: { status: number; body: any }, reason: string) => {
    expect({ status: res.status, reason: res.body?.reason }).toEqual({ status: 401, reason });
  };
  /** Moves a rotation back in time, past the grace window (the clock does not need to move). */
  const ageRotation = (token: string, seconds: number) =>
    sql(`UPDATE refresh_tokens SET rotated_at = rotated_at - make_interval(secs => $2) WHERE token_hash = $1`, [
      hashToken(token),
      seconds,
    ]);

  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
  });
  afterAll(() => server?.stop());

  it("rotates: a new pair for the same session, the session moves, the usage event is recorded", async () => {
    const { body } = await app.signup();
    const sid = decodeJwt(body.access_token).sid as string;
    await sql(`UPDATE sessions SET last_active_at = now() - interval '1 hour' WHERE id = $1`, [sid]);

    const res = await refresh(body.refresh_token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "expires_in", "refresh_token", "token_type"]);
    expect(res.body).toMatchObject({ expires_in: 3600, token_type: "Bearer" });
    expect(res.body.refresh_token).toMatch(/^grt_/);
    expect(res.body.refresh_token).not.toBe(body.refresh_token);
    const claims = decodeJwt(res.body.access_token);
    expect(claims).toMatchObject({ sub: body.user.id, sid, amr: ["pwd"], project_id: app.projectId });
    expect(claims.jti).not.toBe(decodeJwt(body.access_token).jti);
    expect(await verify(res.body.access_token)).toBe(true);

    const [session] = await sql(`SELECT last_active_at FROM sessions WHERE id = $1`, [sid]);
    expect(Date.now() - new Date(session.last_active_at).getTime()).toBeLessThan(60_000);
    const [events] = await sql(
      `SELECT count(*)::int AS n FROM auth_events WHERE user_id = $1 AND kind = 'refresh' AND method = 'refresh'`,
      [body.user.id],
    );
    expect(events.n).toBe(1);

    // The new refresh token works over gRPC too; the answer has the same shape.
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "Refresh",
      { refresh_token: res.body.refresh_token },
      { "x-service-key": app.key },
    );
    expect(viaGrpc.error).toBeUndefined();
    expect(viaGrpc.response).toMatchObject({ expires_in: 3600, token_type: "Bearer" });
    expect(viaGrpc.response.refresh_token).not.toBe(res.body.refresh_token);
    expect(decodeJwt(viaGrpc.response.access_token).sid).toBe(sid);
  });

  it("20 concurrent refreshes of one token rotate it once and all get the same pair; a later use is reuse and kills the session", async () => {
    const { body } = await app.signup();
    const sid = decodeJwt(body.access_token).sid as string;

    const answers = await Promise.all(Array.from({ length: 20 }, () => refresh(body.refresh_token)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    for (const a of answers) expect(a.body).toEqual(answers[0].body);
    const pair = answers[0].body;

    const rows = await sql(
      `SELECT token_hash, rotated_at, successor_sealed FROM refresh_tokens WHERE session_id = $1 ORDER BY created_at`,
      [sid],
    );
    expect(rows).toHaveLength(2); // the signup's token and exactly one successor
    expect(rows[0].token_hash).toBe(hashToken(body.refresh_token));
    expect(rows[0].rotated_at).not.toBeNull();
    expect(rows[0].successor_sealed).toMatch(/^v1\./); // kept sealed, never in clear
    expect(rows[0].successor_sealed).not.toContain(pair.refresh_token);
    expect(rows[1].token_hash).toBe(hashToken(pair.refresh_token));
    const [events] = await sql(`SELECT count(*)::int AS n FROM auth_events WHERE user_id = $1 AND kind = 'refresh'`, [
      body.user.id,
    ]);
    expect(events.n).toBe(1);
    expect(await verify(pair.access_token)).toBe(true);

    // 11 seconds after the rotation the old token is reuse.
    await ageRotation(body.refresh_token, 11);
    const reused = await refresh(body.refresh_token);
    expectUnauthenticated(reused, "REFRESH_TOKEN_REUSED");
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "Refresh",
      { refresh_token: body.refresh_token },
      { "x-service-key": app.key },
    );
    expect(viaGrpc.reason).toBe("INVALID_REFRESH_TOKEN"); // the session is gone now

    // The whole session died: its newest refresh token and every access token.
    expectUnauthenticated(await refresh(pair.refresh_token), "INVALID_REFRESH_TOKEN");
    expect(await verify(pair.access_token)).toBe(false);
    expect(await verify(body.access_token)).toBe(false);
    const [session] = await sql(`SELECT revoked_at FROM sessions WHERE id = $1`, [sid]);
    expect(session.revoked_at).not.toBeNull();
    const [old] = await sql(`SELECT successor_sealed FROM refresh_tokens WHERE token_hash = $1`, [
      hashToken(body.refresh_token),
    ]);
    expect(old.successor_sealed).toBeNull();
  });

  it("a retry within the window gets the same pair; reuse of an older token ends only its own session", async () => {
    const { email, password, body } = await app.signup();
    const other = (await app.call("POST", "/v1/auth/login", { email, password })).body;
    const first = await refresh(body.refresh_token);
    await ageRotation(body.refresh_token, 5);
    const retry = await refresh(body.refresh_token);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);

    await ageRotation(body.refresh_token, 6); // 11 s in all
    expectUnauthenticated(await refresh(body.refresh_token), "REFRESH_TOKEN_REUSED");
    expect(await verify(other.access_token)).toBe(true);
    expect((await refresh(other.refresh_token)).status).toBe(200);
  });

  it("a pair's sealed plaintext is forgotten once its window is over (at the session's next rotation)", async () => {
    const { body } = await app.signup();
    const second = (await refresh(body.refresh_token)).body;
    await ageRotation(body.refresh_token, 11);
    const third = await refresh(second.refresh_token);
    expect(third.status).toBe(200);
    const [a] = await sql(`SELECT successor_sealed FROM refresh_tokens WHERE token_hash = $1`, [
      hashToken(body.refresh_token),
    ]);
    const [b] = await sql(`SELECT successor_sealed FROM refresh_tokens WHERE token_hash = $1`, [
      hashToken(second.refresh_token),
    ]);
    expect(a.successor_sealed).toBeNull();
    expect(b.successor_sealed).not.toBeNull();
  });

  it("unknown, foreign, expired, revoked tokens and ended sessions or users answer INVALID_REFRESH_TOKEN", async () => {
    expectUnauthenticated(await refresh("grt_not-a-token"), "INVALID_REFRESH_TOKEN");

    const foreign = await (await authFixture(server)).signup();
    expectUnauthenticated(await refresh(foreign.body.refresh_token), "INVALID_REFRESH_TOKEN");

    const expired = (await app.signup()).body;
    await sql(`UPDATE refresh_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [
      hashToken(expired.refresh_token),
    ]);
    expectUnauthenticated(await refresh(expired.refresh_token), "INVALID_REFRESH_TOKEN");

    const revoked = (await app.signup()).body;
    expect((await app.call("POST", "/v1/auth/token/revoke", { token: revoked.refresh_token })).body).toEqual({
      revoked: true,
    });
    expectUnauthenticated(await refresh(revoked.refresh_token), "INVALID_REFRESH_TOKEN");

    const ended = (await app.signup()).body;
    await server.deps.db.repos.sessions.revoke(
      app.projectId,
      ended.user.id,
      decodeJwt(ended.access_token).sid as string,
      new Date(),
    );
    expectUnauthenticated(await refresh(ended.refresh_token), "INVALID_REFRESH_TOKEN");

    const disabled = (await app.signup()).body;
    await server.deps.db.repos.users.update(app.projectId, disabled.user.id, { disabled: true });
    expectUnauthenticated(await refresh(disabled.refresh_token), "INVALID_REFRESH_TOKEN");

    const deleted = (await app.signup()).body;
    expect(await server.deps.db.repos.users.delete(app.projectId, deleted.user.id)).toBe(true);
    expectUnauthenticated(await refresh(deleted.refresh_token), "INVALID_REFRESH_TOKEN");

    // None of these answers rotated anything or counted a refresh.
    const [events] = await sql(
      `SELECT count(*)::int AS n FROM auth_events WHERE user_id = ANY($1) AND kind = 'refresh'`,
      [[expired.user.id, revoked.user.id, ended.user.id, disabled.user.id]],
    );
    expect(events.n).toBe(0);
  });
});
