import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/crypto/tokens.js";
import { expectError } from "../helpers/account.js";
import { connectViolations, grpcCall, grpcClient, type HttpAnswer } from "../helpers/clients.js";
import { createTestClock, type TestClock } from "../helpers/clock.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { projectBody } from "../account/project-helpers.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { injectConnect, injectHttp } from "../helpers/inject.js";

// Threats: a stolen refresh token that keeps a session alive for the whole absolute lifetime
// even though its owner walked away long ago (no idle timeout); a project owner who shortens
// the session lifetime after an incident and finds every live session keeps the old, longer
// one. Time moves with the server's clock; no row is aged with SQL.

const SECOND = 1000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

describe("session lifetimes", () => {
  let server: TestServer;
  let clock: TestClock;
  const sql = (text: string, params: unknown[] = []) => server.deps.db.dataSource.query(text, params);

  beforeAll(async () => {
    clock = createTestClock();
    server = await startTestServer({}, undefined, { clock });
  });
  afterAll(() => server?.stop());

  /** A fresh project (its own organization) with the given settings applied over UpdateProject. */
  async function project(settings: Record<string, unknown> = {}, fixtureSettings: { tokenExpiry?: number } = {}) {
    const app = await authFixture(server, fixtureSettings);
    if (Object.keys(settings).length > 0) expect((await update(app, settings)).status).toBe(200);
    return app;
  }
  const update = async (app: AuthFixture, body: Record<string, unknown>) =>
    injectHttp(server.handle, `/v1/projects/${app.projectId}`, { method: "PATCH", headers: await app.admin(), body });
  const refresh = (app: AuthFixture, token: string) =>
    app.call("POST", "/v1/auth/token/refresh", { refresh_token: token });
  const verify = async (app: AuthFixture, token: string) =>
    (await app.call("POST", "/v1/auth/token/verify", { token })).body.valid as boolean;
  const refused = (res: HttpAnswer) => expectError(res, 401, "INVALID_REFRESH_TOKEN");
  const sessionRow = async (accessToken: string) =>
    (
      await sql(`SELECT created_at, last_active_at, expires_at, revoked_at FROM sessions WHERE id = $1`, [
        decodeJwt(accessToken).sid,
      ])
    )[0];
  const refreshTokenExpiry = async (token: string) =>
    new Date(
      (await sql(`SELECT expires_at FROM refresh_tokens WHERE token_hash = $1`, [hashToken(token)]))[0].expires_at,
    ).getTime();

  describe("idle timeout (session_idle_timeout)", () => {
    it("a session idle longer than the timeout cannot be refreshed; its access token still verifies until its exp", async () => {
      const app = await project({ session_idle_timeout: 600 });
      const { body } = await app.signup();
      clock.advance(601 * SECOND);
      refused(await refresh(app, body.refresh_token));
      const viaGrpc = await grpcCall(
        grpcClient(server.port, "auth"),
        "Refresh",
        { refresh_token: body.refresh_token },
        { "x-service-key": app.key },
      );
      expect({ code: viaGrpc.error?.code, reason: viaGrpc.reason }).toEqual({
        code: 16,
        reason: "INVALID_REFRESH_TOKEN",
      });
      // Only renewal stops (as Auth0 and Zitadel do): the session is not revoked, and the
      // access token already issued lives out its hour.
      expect(await verify(app, body.access_token)).toBe(true);
      expect((await sessionRow(body.access_token)).revoked_at).toBeNull();
      clock.advance(HOUR);
      expect(await verify(app, body.access_token)).toBe(false);
      refused(await refresh(app, body.refresh_token));
    });

    it("within the window the refresh works, and each refresh keeps the session alive", async () => {
      const app = await project({ session_idle_timeout: 600 });
      const { body } = await app.signup();
      let token = body.refresh_token as string;
      // Five refreshes 590 s apart: 49 minutes in all, far beyond the 10-minute window.
      for (let i = 0; i < 5; i++) {
        clock.advance(590 * SECOND);
        const res = await refresh(app, token);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        token = res.body.refresh_token;
        const row = await sessionRow(res.body.access_token);
        expect(Math.abs(new Date(row.last_active_at).getTime() - clock.now().getTime())).toBeLessThan(5 * SECOND);
      }
      // Exactly at the timeout it still works (idle means longer than the timeout) …
      clock.advance(600 * SECOND - 2 * SECOND);
      const atEdge = await refresh(app, token);
      expect(atEdge.status).toBe(200);
      // … one second past it, it does not.
      clock.advance(601 * SECOND);
      refused(await refresh(app, atEdge.body.refresh_token));
    });

    it("0 is off (the default): a session may rest until its absolute end", async () => {
      const app = await project();
      const { body } = await app.signup();
      clock.advance(29 * DAY);
      const res = await refresh(app, body.refresh_token);
      expect(res.status).toBe(200);
    });

    it("is read at each refresh: turned on, it reaches existing sessions; set to 0 again, an idle session may refresh", async () => {
      const app = await project();
      const { body } = await app.signup();
      clock.advance(2 * HOUR);
      expect((await update(app, { session_idle_timeout: 3600 })).body.session_idle_timeout).toBe(3600);
      refused(await refresh(app, body.refresh_token));
      expect((await update(app, { session_idle_timeout: 0 })).body.session_idle_timeout).toBe(0);
      expect((await refresh(app, body.refresh_token)).status).toBe(200);
    });
  });

  describe("absolute lifetime (refresh_token_expiry)", () => {
    it("refreshes never extend it: the session ends at sign-in + refresh_token_expiry", async () => {
      const app = await project({ refresh_token_expiry: 7200 });
      const { body } = await app.signup();
      clock.advance(HOUR);
      const first = await refresh(app, body.refresh_token);
      expect(first.status).toBe(200);
      clock.advance(HOUR + SECOND);
      refused(await refresh(app, first.body.refresh_token));
    });

    it("lowering it shortens live sessions at their next refresh: older ones end, younger ones get the new end", async () => {
      const app = await project();
      const old = (await app.signup()).body;
      clock.advance(2 * DAY);
      const young = (await app.signup()).body;
      clock.advance(HOUR);
      expect((await update(app, { refresh_token_expiry: DAY / 1000 })).body.refresh_token_expiry).toBe(86400);

      // Two days old under a one-day lifetime: refused, and its session ended at sign-in + 1 day.
      refused(await refresh(app, old.refresh_token));
      const oldRow = await sessionRow(old.access_token);
      expect(new Date(oldRow.expires_at).getTime() - new Date(oldRow.created_at).getTime()).toBe(DAY);

      // An hour old: refreshed, and the new refresh token (and the session) end at sign-in + 1 day.
      const res = await refresh(app, young.refresh_token);
      expect(res.status).toBe(200);
      const youngRow = await sessionRow(young.access_token);
      const youngEnd = new Date(youngRow.created_at).getTime() + DAY;
      expect(new Date(youngRow.expires_at).getTime()).toBe(youngEnd);
      expect(await refreshTokenExpiry(res.body.refresh_token)).toBe(youngEnd);
      clock.advance(DAY - HOUR + SECOND);
      refused(await refresh(app, res.body.refresh_token));
    });

    it("a session past a lowered lifetime ends at that refresh: its access tokens stop verifying too", async () => {
      const app = await project({}, { tokenExpiry: 86400 });
      const { body } = await app.signup();
      clock.advance(23 * HOUR);
      const renewed = await refresh(app, body.refresh_token);
      expect(renewed.status).toBe(200);
      expect((await update(app, { refresh_token_expiry: 12 * 3600 })).status).toBe(200);
      // Not yet refreshed under the new lifetime: its day-long access token still verifies.
      expect(await verify(app, renewed.body.access_token)).toBe(true);
      refused(await refresh(app, renewed.body.refresh_token));
      expect(await verify(app, renewed.body.access_token)).toBe(false);
      const list = await app.call("GET", "/v1/auth/sessions", undefined, renewed.body.access_token);
      expectError(list, 401, "INVALID_ACCESS_TOKEN");
    });

    it("raising it does not lengthen a live session", async () => {
      const app = await project({ refresh_token_expiry: 3600 });
      const { body } = await app.signup();
      expect((await update(app, { refresh_token_expiry: 31536000 })).status).toBe(200);
      clock.advance(HOUR + SECOND);
      refused(await refresh(app, body.refresh_token));
    });
  });

  describe("session_idle_timeout on the Account interface", () => {
    let app: AuthFixture;
    let admin: Record<string, string>;
    beforeAll(async () => {
      app = await authFixture(server);
      admin = await app.admin();
    });
    const patch = (body: Record<string, unknown>) =>
      injectHttp(server.handle, `/v1/projects/${app.projectId}`, { method: "PATCH", headers: admin, body });
    const violation = (res: HttpAnswer) => {
      expectError(res, 400, "VALIDATION_FAILED");
      expect(res.body.violations.map((v: { field: string }) => v.field)).toEqual(["session_idle_timeout"]);
      return res.body.violations[0].description as string;
    };

    it("UpdateProject refuses what is neither 0 nor 300..31536000, and changes nothing", async () => {
      expect(violation(await patch({ session_idle_timeout: 299 }))).toBe("must be 0 (off) or between 300 and 31536000");
      expect(violation(await patch({ session_idle_timeout: 1 }))).toBe("must be 0 (off) or between 300 and 31536000");
      violation(await patch({ session_idle_timeout: -1 }));
      violation(await patch({ session_idle_timeout: 31536001 }));
      const viaConnect = await injectConnect(
        server.handle,
        "account",
        "UpdateProject",
        { id: app.projectId, session_idle_timeout: 299 },
        admin,
      );
      expect({ status: viaConnect.status, violations: connectViolations(viaConnect.body).map((v) => v.field) }).toEqual(
        {
          status: 400,
          violations: ["session_idle_timeout"],
        },
      );
      const got = await injectHttp(server.handle, `/v1/projects/${app.projectId}`, { headers: admin });
      expect(got.body.session_idle_timeout).toBe(0);
    });

    it("UpdateProject sets it with field presence: absent keeps it, 0 turns it off", async () => {
      expect((await patch({ session_idle_timeout: 300 })).body.session_idle_timeout).toBe(300);
      const renamed = await patch({ name: "Renamed" });
      expect(renamed.body).toMatchObject({ name: "Renamed", session_idle_timeout: 300 });
      expect((await patch({ session_idle_timeout: 31536000 })).body.session_idle_timeout).toBe(31536000);
      expect((await patch({ session_idle_timeout: 0 })).body.session_idle_timeout).toBe(0);
      expect((await patch({ session_idle_timeout: 1800 })).body.session_idle_timeout).toBe(1800);
    });

    it("CreateProject takes it (default 0, the same bounds); GetProject and ListProjects show it, on REST and gRPC", async () => {
      const create = (overrides: Record<string, unknown>) =>
        injectHttp(server.handle, "/v1/projects", { headers: admin, body: projectBody(overrides) });
      violation(await create({ session_idle_timeout: 100 }));
      const plain = await create({ name: "Default idle" });
      expect(plain.status).toBe(200);
      expect(plain.body.session_idle_timeout).toBe(0);
      const idle = await create({ name: "Idle", session_idle_timeout: 900 });
      expect(idle.body.session_idle_timeout).toBe(900);

      const got = await injectHttp(server.handle, `/v1/projects/${idle.body.id}`, { headers: admin });
      expect(got.body.session_idle_timeout).toBe(900);
      const listed = await injectHttp(server.handle, "/v1/projects?limit=100", { headers: admin });
      const byId = new Map(listed.body.data.map((p: any) => [p.id, p.session_idle_timeout]));
      expect([byId.get(idle.body.id), byId.get(plain.body.id)]).toEqual([900, 0]);
      const viaGrpc = await grpcCall(grpcClient(server.port, "account"), "GetProject", { id: idle.body.id }, admin);
      expect(viaGrpc.response.session_idle_timeout).toBe(900);
      const listedGrpc = await grpcCall(grpcClient(server.port, "account"), "ListProjects", { limit: 100 }, admin);
      expect(listedGrpc.response.data.find((p: any) => p.id === idle.body.id).session_idle_timeout).toBe(900);
    });
  });
});
