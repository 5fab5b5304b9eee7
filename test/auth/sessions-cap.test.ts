import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_SESSIONS_PER_USER } from "../../src/domain/account.js";
import { startSession } from "../../src/flows/auth/tokens.js";
import { expectError } from "../helpers/account.js";
import type { HttpAnswer } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { challenge, freshCode, totpUser, verifyMfa } from "./mfa-helpers.js";
import { injectHttp } from "../helpers/inject.js";

// Threat: a password that leaked once is used to open session after session (a credential
// stuffing run, or a script that signs in on every request), each a refresh token that lives
// for 30 days; the user's session list grows without end and the rows with it. A user has at
// most the project's max_sessions_per_user live sessions: a sign-in past the cap ends the
// oldest, and an ended session is ended everywhere (refresh refused, access tokens refused
// by VerifyToken at once, even where a verification was cached).

const SECOND = 1000;

describe("sessions per user are capped (max_sessions_per_user)", () => {
  // The server on a test clock (no mail or SMS sinks): `ctx.server`, `clock`, `sql`.
  const ctx = useMessagingServer();
  const { clock, sql } = ctx;

  const update = async (app: AuthFixture, body: Record<string, unknown>) => {
    const res = await injectHttp(ctx.server.handle, `/v1/projects/${app.projectId}`, {
      method: "PATCH",
      headers: await app.admin(),
      body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res;
  };
  const project = async (cap?: number) => {
    const app = await authFixture(ctx.server);
    if (cap !== undefined)
      expect((await update(app, { max_sessions_per_user: cap })).body.max_sessions_per_user).toBe(cap);
    return app;
  };
  const verify = async (app: AuthFixture, token: string) =>
    (await app.call("POST", "/v1/auth/token/verify", { token })).body.valid as boolean;
  const refresh = (app: AuthFixture, token: string) =>
    app.call("POST", "/v1/auth/token/refresh", { refresh_token: token });
  const liveSessions = async (userId: string) =>
    (
      (await sql(
        `SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY created_at, id`,
        [userId, clock.now()],
      )) as {
        id: string;
      }[]
    ).map((r) => r.id);
  const capAudits = async (userId: string) =>
    (await sql(
      `SELECT target_id, actor_type, actor_id, details FROM audit_events WHERE user_id = $1 AND type = 'session.revoked' ORDER BY created_at, id`,
      [userId],
    )) as { target_id: string | null; actor_type: string; actor_id: string; details: any }[];

  interface SignedIn {
    accessToken: string;
    refreshToken: string;
    sid: string;
  }
  const signedIn = (res: HttpAnswer): SignedIn => {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return {
      accessToken: res.body.access_token,
      refreshToken: res.body.refresh_token,
      sid: decodeJwt(res.body.access_token).sid as string,
    };
  };

  /** A user signed up and then signed in until it has `count` sessions, one second apart, oldest first. */
  async function userWithSessions(app: AuthFixture, count: number) {
    const { email, password, body } = await app.signup();
    const sessions = [signedIn({ status: 200, headers: new Headers(), body })];
    const login = async () => {
      clock.advance(SECOND);
      const session = signedIn(await app.call("POST", "/v1/auth/login", { email, password }));
      sessions.push(session);
      return session;
    };
    while (sessions.length < count) await login();
    return { userId: body.user.id as string, email, password, sessions, login };
  }

  it("the default cap is 50", async () => {
    const app = await project();
    const res = await injectHttp(ctx.server.handle, `/v1/projects/${app.projectId}`, { headers: await app.admin() });
    expect(res.body.max_sessions_per_user).toBe(DEFAULT_MAX_SESSIONS_PER_USER);
    expect(DEFAULT_MAX_SESSIONS_PER_USER).toBe(50);
  });

  it("with a cap of 3, a fourth sign-in ends the oldest session: refresh refused, access token refused at once; the three newest work", async () => {
    const app = await project(3);
    const user = await userWithSessions(app, 3);
    // Verified once before: the verification is cached, and the revocation must reach the cache.
    for (const s of user.sessions) expect(await verify(app, s.accessToken)).toBe(true);
    expect(await liveSessions(user.userId)).toEqual(user.sessions.map((s) => s.sid));

    const fourth = await user.login();
    const [oldest, ...newest] = user.sessions;
    expect(await verify(app, oldest.accessToken)).toBe(false);
    expectError(await refresh(app, oldest.refreshToken), 401, "INVALID_REFRESH_TOKEN");
    const asBearer = await app.call("GET", "/v1/auth/sessions", undefined, oldest.accessToken);
    expectError(asBearer, 401, "INVALID_ACCESS_TOKEN");

    expect(await liveSessions(user.userId)).toEqual(newest.map((s) => s.sid));
    for (const s of newest) expect(await verify(app, s.accessToken)).toBe(true);
    const list = await app.call("GET", "/v1/auth/sessions", undefined, fourth.accessToken);
    expect(list.body.data.map((s: any) => s.id)).toEqual(newest.map((s) => s.sid).reverse());
    // Each of the three keeps refreshing.
    for (const s of newest) expect((await refresh(app, s.refreshToken)).status).toBe(200);

    // The audit log says which session ended and why; the user's sign-in did it.
    expect(await capAudits(user.userId)).toEqual([
      {
        target_id: oldest.sid,
        actor_type: "user",
        actor_id: user.userId,
        details: { reason: "session_cap", max_sessions_per_user: 3, count: 1, session_ids: [oldest.sid] },
      },
    ]);
  });

  it("each further sign-in ends the then-oldest; sign-ins under the cap end nothing", async () => {
    const app = await project(2);
    const user = await userWithSessions(app, 2);
    expect(await capAudits(user.userId)).toEqual([]);
    await user.login();
    await user.login();
    const sids = user.sessions.map((s) => s.sid);
    expect(await liveSessions(user.userId)).toEqual(sids.slice(2));
    expect((await capAudits(user.userId)).map((a) => a.target_id)).toEqual(sids.slice(0, 2));
    for (const s of user.sessions.slice(0, 2)) expect(await verify(app, s.accessToken)).toBe(false);
  });

  it("sessions that already ended do not count: a revoked one leaves room", async () => {
    const app = await project(3);
    const user = await userWithSessions(app, 3);
    expect(
      (await app.call("DELETE", `/v1/auth/sessions/${user.sessions[1].sid}`, undefined, user.sessions[2].accessToken))
        .status,
    ).toBe(200);
    await user.login();
    const sids = user.sessions.map((s) => s.sid);
    expect(await liveSessions(user.userId)).toEqual([sids[0], sids[2], sids[3]]);
    expect((await capAudits(user.userId)).filter((a) => a.details.reason === "session_cap")).toEqual([]);
  });

  it("a lowered cap reaches the user at the next sign-in, which ends every session past it at once", async () => {
    const app = await project();
    const user = await userWithSessions(app, 6);
    const other = await userWithSessions(app, 3);
    await update(app, { max_sessions_per_user: 2 });
    // Nothing ends before the user signs in again.
    expect(await liveSessions(user.userId)).toHaveLength(6);
    for (const s of user.sessions) expect(await verify(app, s.accessToken)).toBe(true);

    const latest = await user.login();
    const sids = user.sessions.map((s) => s.sid);
    expect(await liveSessions(user.userId)).toEqual([sids[5], latest.sid]);
    for (const s of user.sessions.slice(0, 5)) expect(await verify(app, s.accessToken)).toBe(false);
    expect(await verify(app, user.sessions[5].accessToken)).toBe(true);
    expect(await capAudits(user.userId)).toEqual([
      {
        target_id: null,
        actor_type: "user",
        actor_id: user.userId,
        details: { reason: "session_cap", max_sessions_per_user: 2, count: 5, session_ids: sids.slice(0, 5) },
      },
    ]);
    // Another user of the project keeps its three until it signs in.
    expect(await liveSessions(other.userId)).toHaveLength(3);
  });

  it("parallel sign-ins of a user at the cap leave exactly the cap, the newest ones", async () => {
    const app = await project(3);
    const user = await userWithSessions(app, 3);
    clock.advance(SECOND);
    const burst = await Promise.all(
      Array.from({ length: 4 }, () =>
        app.call("POST", "/v1/auth/login", { email: user.email, password: user.password }).then(signedIn),
      ),
    );
    const live = await liveSessions(user.userId);
    expect(live).toHaveLength(3);
    // Only sessions of the burst survive (they are newer than the three before it).
    for (const sid of live) expect(burst.map((s) => s.sid)).toContain(sid);
    for (const s of user.sessions) expect(await verify(app, s.accessToken)).toBe(false);
    const ended = (await capAudits(user.userId)).flatMap((a) => a.details.session_ids as string[]);
    expect(ended.sort()).toEqual(
      [...user.sessions.map((s) => s.sid), ...burst.map((s) => s.sid).filter((sid) => !live.includes(sid))].sort(),
    );
  });

  it("a burst of parallel sign-ins straight to the store (no password check to spread them) leaves exactly the cap", async () => {
    const app = await project(3);
    const user = await userWithSessions(app, 3);
    const projectRow = (await ctx.server.deps.db.repos.projects.getByIdForFlow(app.projectId))!;
    const userRow = (await ctx.server.deps.db.repos.users.get(app.projectId, user.userId))!;
    clock.advance(SECOND);
    const context = {
      amr: ["pwd"],
      method: "password" as const,
      kind: "login" as const,
      client: { ipAddress: "127.0.0.1", userAgent: "burst" },
    };
    const burst = await Promise.all(
      Array.from({ length: 12 }, () =>
        startSession(ctx.server.deps, ctx.server.deps.db.repos, projectRow, userRow, context),
      ),
    );
    const live = await liveSessions(user.userId);
    expect(live).toHaveLength(3);
    for (const sid of live) expect(burst.map((b) => b.session.id)).toContain(sid);
    // Every session that ended is in exactly one audit row.
    const ended = (await capAudits(user.userId)).flatMap((a) => a.details.session_ids as string[]);
    expect(ended).toHaveLength(3 + 12 - 3);
    expect(new Set(ended).size).toBe(ended.length);
    const [{ last }] = await sql(`SELECT last_login_at AS last FROM users WHERE id = $1`, [user.userId]);
    expect(new Date(last).getTime()).toBe(Math.max(...burst.map((b) => b.session.createdAt.getTime())));
  });

  it("parallel sign-ins one below the cap leave at most the cap", async () => {
    const app = await project(3);
    const user = await userWithSessions(app, 2);
    clock.advance(SECOND);
    await Promise.all(
      [0, 1].map(() =>
        app.call("POST", "/v1/auth/login", { email: user.email, password: user.password }).then(signedIn),
      ),
    );
    expect(await liveSessions(user.userId)).toHaveLength(3);
  });

  it("a sign-in completed with a second factor counts toward the same cap", async () => {
    const app = await project(1);
    const user = await totpUser(app, clock);
    const mfaToken = await challenge(app, user);
    const completed = signedIn(
      await verifyMfa(app, { mfa_token: mfaToken, code: await freshCode(user.secret, clock) }),
    );
    expect(await liveSessions(user.userId)).toEqual([completed.sid]);
    expect(await verify(app, user.accessToken)).toBe(false);
    expect((await capAudits(user.userId)).map((a) => a.target_id)).toEqual([decodeJwt(user.accessToken).sid]);
  });
});
