import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/crypto/ids.js";
import { accountFixture, expectError, type AccountFixture } from "../helpers/account.js";
import { grpcCall, grpcClient } from "../helpers/clients.js";
import { createTestClock, type TestClock } from "../helpers/clock.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { authLogin, createApiKey, createProject } from "../account/project-helpers.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { injectConnect } from "../helpers/inject.js";

// Threats: a client that retries a revoke after a lost answer (or loses a race to another
// revoke) being told the credential is unknown, and so believing it may still be live, while
// RevokeToken tells it the truth; and the opposite mistake, a "revoked: false" that confirms to
// another tenant that an id exists. All three revocations answer alike: 200 `revoked: true`
// the first time, 200 `revoked: false` for something of the caller's that is already revoked,
// and (RevokeSession, RevokeApiKey) 404 for an id that was never the caller's.

const DAY_MS = 86_400_000;

describe("RevokeApiKey is safe to repeat", () => {
  let server: TestServer;
  let f: AccountFixture;
  let project: any;
  let theirKey: any;
  const del = (id: string, headers: Record<string, string>) => f.rest("DELETE", `/v1/api-keys/${id}`, headers);

  beforeAll(async () => {
    server = await sharedTestServer();
    f = await accountFixture(server);
    project = await createProject(f, { name: "Revocations" });
    const theirProject = await createProject(f, {}, f.outsider.headers);
    theirKey = await createApiKey(f, theirProject.id, {}, f.outsider.headers);
  });
  afterAll(() => server?.stop());

  it("first revoke {revoked: true, id}; the second {revoked: false, id} (200), and the key stays dead", async () => {
    const key = await createApiKey(f, project.id);
    const first = await del(key.id, f.developer.headers);
    expect({ status: first.status, body: first.body }).toEqual({ status: 200, body: { revoked: true, id: key.id } });
    const second = await del(key.id, f.admin.headers);
    expect({ status: second.status, body: second.body }).toEqual({ status: 200, body: { revoked: false, id: key.id } });
    expectError(await authLogin(server.url, key.key), 401, "INVALID_API_KEY");
  });

  it("the same over gRPC and Connect", async () => {
    const a = await createApiKey(f, project.id);
    const grpc = grpcClient(server.port, "account");
    expect((await grpcCall(grpc, "RevokeApiKey", { id: a.id }, f.admin.headers)).response).toEqual({
      revoked: true,
      id: a.id,
    });
    const again = await grpcCall(grpc, "RevokeApiKey", { id: a.id }, f.admin.headers);
    expect({ error: again.error?.code, response: again.response }).toEqual({
      error: undefined,
      response: { revoked: false, id: a.id },
    });
    const viaConnect = await injectConnect(server.handle, "account", "RevokeApiKey", { id: a.id }, f.developer.headers);
    expect({ status: viaConnect.status, body: viaConnect.body }).toEqual({
      status: 200,
      body: { revoked: false, id: a.id },
    });
  });

  it("two racing revokes: both 200, exactly one revoked it", async () => {
    const key = await createApiKey(f, project.id);
    const answers = await Promise.all([del(key.id, f.admin.headers), del(key.id, f.developer.headers)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.body.revoked).sort()).toEqual([false, true]);
  });

  it("an unknown id is 404 API_KEY_NOT_FOUND", async () => {
    expectError(await del(newId("key"), f.admin.headers), 404, "API_KEY_NOT_FOUND");
  });

  it("another organization's key is 404 whether it is live or already revoked, and stays as it was", async () => {
    expectError(await del(theirKey.id, f.admin.headers), 404, "API_KEY_NOT_FOUND");
    expect((await authLogin(server.url, theirKey.key)).body.reason).toBe("INVALID_CREDENTIALS"); // still live
    const ours = await createApiKey(f, project.id);
    expect((await del(ours.id, f.admin.headers)).body.revoked).toBe(true);
    // Revoked here, yet to the other organization it does not exist: no `revoked: false`.
    expectError(await del(ours.id, f.outsider.headers), 404, "API_KEY_NOT_FOUND");
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "account"),
      "RevokeApiKey",
      { id: ours.id },
      f.outsider.headers,
    );
    expect({ code: viaGrpc.error?.code, reason: viaGrpc.reason }).toEqual({ code: 5, reason: "API_KEY_NOT_FOUND" });
  });
});

describe("RevokeSession is safe to repeat", () => {
  let server: TestServer;
  let clock: TestClock;
  let app: AuthFixture;
  let otherProject: AuthFixture;

  beforeAll(async () => {
    clock = createTestClock();
    server = await startTestServer({}, undefined, { clock });
    app = await authFixture(server);
    otherProject = await authFixture(server);
  });
  afterAll(() => server?.stop());

  const sidOf = (accessToken: string) => decodeJwt(accessToken).sid as string;
  const revoke = (sid: string, bearer: string, fixture = app) =>
    fixture.call("DELETE", `/v1/auth/sessions/${sid}`, undefined, bearer);
  const verify = async (token: string) =>
    (await app.call("POST", "/v1/auth/token/verify", { token })).body.valid as boolean;

  /** A user with two sessions: `doomed` (signup) and `caller` (a login). */
  async function userWithTwoSessions() {
    const { email, password, body } = await app.signup();
    const login = await app.call("POST", "/v1/auth/login", { email, password });
    expect(login.status).toBe(200);
    return { email, password, doomed: body, caller: login.body };
  }

  it("first revoke {revoked: true}; the second {revoked: false, session_id} (200)", async () => {
    const u = await userWithTwoSessions();
    const sid = sidOf(u.doomed.access_token);
    const first = await revoke(sid, u.caller.access_token);
    expect({ status: first.status, body: first.body }).toEqual({
      status: 200,
      body: { revoked: true, session_id: sid },
    });
    const second = await revoke(sid, u.caller.access_token);
    expect({ status: second.status, body: second.body }).toEqual({
      status: 200,
      body: { revoked: false, session_id: sid },
    });
    expect(await verify(u.doomed.access_token)).toBe(false);
    expect(await verify(u.caller.access_token)).toBe(true);
  });

  it("the same over gRPC and Connect", async () => {
    const u = await userWithTwoSessions();
    const sid = sidOf(u.doomed.access_token);
    const headers = { "x-service-key": app.key, authorization: `Bearer ${u.caller.access_token}` };
    const grpc = grpcClient(server.port, "auth");
    expect((await grpcCall(grpc, "RevokeSession", { id: sid }, headers)).response).toEqual({
      revoked: true,
      session_id: sid,
    });
    const again = await grpcCall(grpc, "RevokeSession", { id: sid }, headers);
    expect({ error: again.error?.code, response: again.response }).toEqual({
      error: undefined,
      response: { revoked: false, session_id: sid },
    });
    const viaConnect = await injectConnect(server.handle, "auth", "RevokeSession", { id: sid }, headers);
    expect({ status: viaConnect.status, body: viaConnect.body }).toEqual({
      status: 200,
      body: { revoked: false, session_id: sid },
    });
  });

  it("an own session that ended by its absolute lifetime answers {revoked: false}", async () => {
    const { email, password, body } = await app.signup();
    clock.advance(31 * DAY_MS); // past refresh_token_expiry (30 days)
    const login = await app.call("POST", "/v1/auth/login", { email, password });
    const res = await revoke(sidOf(body.access_token), login.body.access_token);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: { revoked: false, session_id: sidOf(body.access_token) },
    });
  });

  it("an unknown id is 404 SESSION_NOT_FOUND", async () => {
    const u = await userWithTwoSessions();
    expectError(await revoke(newId("sess"), u.caller.access_token), 404, "SESSION_NOT_FOUND");
  });

  it("another user's session, live or revoked, is 404 and stays as it was", async () => {
    const u = await userWithTwoSessions();
    const other = await userWithTwoSessions();
    const otherSid = sidOf(other.doomed.access_token);
    expectError(await revoke(otherSid, u.caller.access_token), 404, "SESSION_NOT_FOUND");
    expect(await verify(other.doomed.access_token)).toBe(true);
    // Revoked by its owner, it is still not the caller's: no `revoked: false` that would confirm it exists.
    expect((await revoke(otherSid, other.caller.access_token)).body.revoked).toBe(true);
    expectError(await revoke(otherSid, u.caller.access_token), 404, "SESSION_NOT_FOUND");
  });

  it("another project's session is 404, revoked or not", async () => {
    const u = await userWithTwoSessions();
    const foreign = await otherProject.signup();
    const foreignSid = sidOf(foreign.body.access_token);
    expectError(await revoke(foreignSid, u.caller.access_token), 404, "SESSION_NOT_FOUND");
    expect(
      (await otherProject.call("POST", "/v1/auth/token/verify", { token: foreign.body.access_token })).body.valid,
    ).toBe(true);
    const login = await otherProject.call("POST", "/v1/auth/login", {
      email: foreign.email,
      password: foreign.password,
    });
    expect((await revoke(foreignSid, login.body.access_token, otherProject)).body.revoked).toBe(true);
    expectError(await revoke(foreignSid, u.caller.access_token), 404, "SESSION_NOT_FOUND");
  });
});

describe("RevokeToken answers the same way (the model the other two follow)", () => {
  let server: TestServer;
  let app: AuthFixture;
  let otherProject: AuthFixture;
  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
    otherProject = await authFixture(server);
  });
  afterAll(() => server?.stop());

  const revoke = (token: string, fixture = app) => fixture.call("POST", "/v1/auth/token/revoke", { token });

  it("first revoke {revoked: true}, the second {revoked: false} (200), for access and refresh tokens", async () => {
    const { body } = await app.signup();
    for (const token of [body.access_token, body.refresh_token]) {
      const first = await revoke(token);
      expect({ status: first.status, body: first.body }).toEqual({ status: 200, body: { revoked: true } });
      const second = await revoke(token);
      expect({ status: second.status, body: second.body }).toEqual({ status: 200, body: { revoked: false } });
    }
  });

  it("an unknown token and another project's token answer {revoked: false} and change nothing", async () => {
    expect((await revoke("grt_unknown")).body).toEqual({ revoked: false });
    const foreign = await otherProject.signup();
    expect((await revoke(foreign.body.access_token)).body).toEqual({ revoked: false });
    expect((await revoke(foreign.body.refresh_token)).body).toEqual({ revoked: false });
    expect(
      (await otherProject.call("POST", "/v1/auth/token/verify", { token: foreign.body.access_token })).body.valid,
    ).toBe(true);
    expect(
      (await otherProject.call("POST", "/v1/auth/token/refresh", { refresh_token: foreign.body.refresh_token })).status,
    ).toBe(200);
  });
});
