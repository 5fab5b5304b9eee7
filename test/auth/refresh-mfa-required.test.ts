import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { expectError } from "../helpers/account.js";
import { connectReason, grpcCall, grpcClient, http } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { challenge, enrollTotp, expectChallenge, freshCode, totpUser, verifyMfa } from "./mfa-helpers.js";
import { injectConnect } from "../helpers/inject.js";

// Threat: a project turns on mfa_required after an incident, yet every session opened with a
// password alone (perhaps by whoever had the password) keeps refreshing for up to 30 days. Now
// a refresh of a session without a second factor in its amr, in a project that requires MFA,
// is PERMISSION_DENIED MFA_REQUIRED_BY_PROJECT and ends the session (committed: its access
// tokens stop verifying at once); the user signs in again and enrolls there.

describe("Refresh in a project that has turned on mfa_required", () => {
  // The server on a test clock (no mail or SMS sinks): `ctx.server`, `clock`, `sql`.
  const ctx = useMessagingServer();
  const { clock, sql } = ctx;

  const setMfaRequired = async (app: AuthFixture, on: boolean) => {
    const res = await http(`${ctx.server.url}/v1/projects/${app.projectId}`, {
      method: "PATCH",
      headers: await app.admin(),
      body: { mfa_required: on },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.mfa_required).toBe(on);
  };
  const refresh = (app: AuthFixture, token: string) =>
    app.call("POST", "/v1/auth/token/refresh", { refresh_token: token });
  const verify = async (app: AuthFixture, token: string) =>
    (await app.call("POST", "/v1/auth/token/verify", { token })).body.valid as boolean;
  const sessionRow = async (accessToken: string) =>
    (await sql(`SELECT revoked_at FROM sessions WHERE id = $1`, [decodeJwt(accessToken).sid]))[0];

  it("a password-only session is refused with 403 MFA_REQUIRED_BY_PROJECT and ends: its access token stops verifying, its refresh token is dead", async () => {
    const app = await authFixture(ctx.server);
    const { body } = await app.signup();
    expect(decodeJwt(body.access_token).amr).toEqual(["pwd"]);
    expect(await verify(app, body.access_token)).toBe(true); // cached as valid
    expect((await refresh(app, body.refresh_token)).status).toBe(200); // before: refreshes
    const before = await app.call("POST", "/v1/auth/login", {
      email: body.user.email,
      password: "a sturdy passphrase 1",
    });
    expect(before.status).toBe(200);

    await setMfaRequired(app, true);
    const refused = await refresh(app, before.body.refresh_token);
    expectError(refused, 403, "MFA_REQUIRED_BY_PROJECT");
    expect(await verify(app, before.body.access_token)).toBe(false);
    expect((await sessionRow(before.body.access_token)).revoked_at).not.toBeNull();
    expectError(
      await app.call("GET", "/v1/auth/sessions", undefined, before.body.access_token),
      401,
      "INVALID_ACCESS_TOKEN",
    );
    // Once ended, the session is like any revoked one.
    expectError(await refresh(app, before.body.refresh_token), 401, "INVALID_REFRESH_TOKEN");

    const audit = await sql(
      `SELECT target_id, actor_type, details FROM audit_events WHERE type = 'session.revoked' AND user_id = $1`,
      [body.user.id],
    );
    expect(audit).toEqual([
      { target_id: decodeJwt(before.body.access_token).sid, actor_type: "user", details: { reason: "mfa_required" } },
    ]);
  });

  it("answers the same over gRPC and Connect (PERMISSION_DENIED)", async () => {
    const app = await authFixture(ctx.server);
    const first = await app.signup();
    const second = await app.signup();
    await setMfaRequired(app, true);
    const viaGrpc = await grpcCall(
      grpcClient(ctx.server.port, "auth"),
      "Refresh",
      { refresh_token: first.body.refresh_token },
      { "x-service-key": app.key },
    );
    expect({ code: viaGrpc.error?.code, reason: viaGrpc.reason }).toEqual({
      code: 7,
      reason: "MFA_REQUIRED_BY_PROJECT",
    });
    expect(await verify(app, first.body.access_token)).toBe(false);
    const viaConnect = await injectConnect(
      ctx.server.handle,
      "auth",
      "Refresh",
      { refreshToken: second.body.refresh_token },
      { "x-service-key": app.key },
    );
    expect({ status: viaConnect.status, code: viaConnect.body.code, reason: connectReason(viaConnect.body) }).toEqual({
      status: 403,
      code: "permission_denied",
      reason: "MFA_REQUIRED_BY_PROJECT",
    });
    expect(await verify(app, second.body.access_token)).toBe(false);
  });

  it("a session signed in with a second factor refreshes as before", async () => {
    const app = await authFixture(ctx.server);
    const user = await totpUser(app, clock);
    const mfaToken = await challenge(app, user);
    const signedIn = await verifyMfa(app, { mfa_token: mfaToken, code: await freshCode(user.secret, clock) });
    expect(signedIn.status).toBe(200);
    expect(decodeJwt(signedIn.body.access_token).amr).toEqual(["pwd", "totp"]);
    await setMfaRequired(app, true);

    const res = await refresh(app, signedIn.body.refresh_token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(decodeJwt(res.body.access_token).amr).toEqual(["pwd", "totp"]);
    expect(await verify(app, res.body.access_token)).toBe(true);
    expect(await verify(app, signedIn.body.access_token)).toBe(true);
    expect((await refresh(app, res.body.refresh_token)).status).toBe(200);
  });

  it("a session opened with a password before the user enrolled is refused too: its amr has no second factor", async () => {
    const app = await authFixture(ctx.server);
    // Signed up with a password, then enrolled TOTP with that session's access token.
    const { email, password, body } = await app.signup();
    await enrollTotp(app, clock, body.access_token);
    await setMfaRequired(app, true);
    // Nothing ends before the session's next refresh.
    expect(await verify(app, body.access_token)).toBe(true);
    expectError(await refresh(app, body.refresh_token), 403, "MFA_REQUIRED_BY_PROJECT");
    expect(await verify(app, body.access_token)).toBe(false);
    // Signing in again asks for the second factor, and that session refreshes.
    const signedIn = expectChallenge(await app.call("POST", "/v1/auth/login", { email, password }), ["totp"]);
    expect(signedIn).toMatch(/^gmfa_/);
  });

  it("a token refreshed just before the switch and presented again within the grace window gets no pair", async () => {
    const app = await authFixture(ctx.server);
    const { body } = await app.signup();
    const rotated = await refresh(app, body.refresh_token);
    expect(rotated.status).toBe(200);
    await setMfaRequired(app, true);
    // A retry inside the 10 s grace window would be answered the same pair: not any more.
    expectError(await refresh(app, body.refresh_token), 403, "MFA_REQUIRED_BY_PROJECT");
    expect(await verify(app, rotated.body.access_token)).toBe(false);
    expectError(await refresh(app, rotated.body.refresh_token), 401, "INVALID_REFRESH_TOKEN");
  });

  it("with mfa_required off again, password-only sessions refresh as before", async () => {
    const app = await authFixture(ctx.server);
    const { body } = await app.signup();
    await setMfaRequired(app, true);
    await setMfaRequired(app, false);
    expect((await refresh(app, body.refresh_token)).status).toBe(200);
  });
});
