import { describe, expect, it } from "vitest";
import { createTestClock } from "../helpers/clock.js";
import { challenge, freshCode, newUser, parseTotpUri, verifyMfa } from "../auth/mfa-helpers.js";
import { auditApp, client, useAuditServer } from "./helpers.js";

// Threat: a stolen refresh token, a hijacked session or an admin's change to an account goes
// unseen. Each is recorded in the transaction that makes it, with who did it and from where.
describe("audit: end-user events", () => {
  const clock = createTestClock();
  const box = useAuditServer({}, { clock });

  it("refresh and refresh-token reuse, as the session's user from the client's address", async () => {
    const app = await auditApp(box.server);
    const { body } = await app.signup();
    const userId = body.user.id;
    const c = client();
    const first = await app.call(
      "POST",
      "/v1/auth/token/refresh",
      { refresh_token: body.refresh_token },
      undefined,
      c.headers,
    );
    expect(first.status).toBe(200);
    clock.advance(11_000);
    const reuse = await app.call(
      "POST",
      "/v1/auth/token/refresh",
      { refresh_token: body.refresh_token },
      undefined,
      c.headers,
    );
    expect([reuse.status, reuse.body.reason]).toEqual([401, "REFRESH_TOKEN_REUSED"]);

    const events = await app.events({ user_id: userId, type: ["token.refreshed", "token.reuse_detected"] });
    expect(events.map((e) => [e.type, e.reason])).toEqual([
      ["token.reuse_detected", "REFRESH_TOKEN_REUSED"],
      ["token.refreshed", ""],
    ]);
    for (const e of events)
      expect(e).toMatchObject({
        actor_type: "user",
        actor_id: userId,
        ip_address: c.ip,
        user_agent: c.userAgent,
        target_id: expect.stringMatching(/^sess_/),
      });
  });

  it("token and session revocations, password change: the actor is whoever called", async () => {
    const app = await auditApp(box.server);
    const { body, password } = await app.signup();
    const userId = body.user.id;
    const second = await app.call("POST", "/v1/auth/login", { email: body.user.email, password });
    expect(second.status).toBe(200);

    // With the API key alone: the key is the actor.
    expect((await app.call("POST", "/v1/auth/token/revoke", { token: second.body.refresh_token })).status).toBe(200);
    // With the user's token: the user is.
    const sessionId = JSON.parse(Buffer.from(second.body.access_token.split(".")[1], "base64url").toString()).sid;
    expect((await app.call("DELETE", `/v1/auth/sessions/${sessionId}`, undefined, body.access_token)).status).toBe(200);
    const change = await app.call(
      "POST",
      "/v1/auth/password/change",
      { current_password: password, new_password: "another sturdy passphrase 2" },
      body.access_token,
    );
    expect(change.status).toBe(200);

    const [revokedToken] = await app.events({ type: "token.revoked" });
    expect(revokedToken).toMatchObject({
      actor_type: "api_key",
      actor_id: expect.stringMatching(/^key_/),
      details: { token: "refresh" },
    });
    const [revokedSession] = await app.events({ type: "session.revoked" });
    expect(revokedSession).toMatchObject({
      actor_type: "user",
      actor_id: userId,
      user_id: userId,
      target_id: sessionId,
    });
    const [changed] = await app.events({ type: "user.password.changed" });
    expect(changed).toMatchObject({ actor_type: "user", actor_id: userId, user_id: userId });
  });

  it("MFA enrollment, a wrong code at the challenge, recovery codes and unenrollment", async () => {
    const app = await auditApp(box.server);
    const user = await newUser(app);
    const start = await app.call("POST", "/v1/auth/mfa/enroll", { method: "totp" }, user.accessToken);
    const { secret } = parseTotpUri(start.body.totp_uri);
    // A wrong code while enrolling is no sign-in: nothing recorded for it.
    expect(
      (
        await app.call(
          "POST",
          "/v1/auth/mfa/verify",
          { code: "000000" === (await freshCode(secret, clock)) ? "111111" : "000000" },
          user.accessToken,
        )
      ).status,
    ).toBe(401);
    expect(
      (await app.call("POST", "/v1/auth/mfa/verify", { code: await freshCode(secret, clock) }, user.accessToken))
        .status,
    ).toBe(200);
    const mfaToken = await challenge(app, user);
    const wrong = await verifyMfa(app, {
      mfa_token: mfaToken,
      code: "000000" === (await freshCode(secret, clock)) ? "111111" : "000000",
      method: "totp",
    });
    expect(wrong.status).toBe(401);
    expect((await app.call("POST", "/v1/auth/mfa/recovery-codes", {}, user.accessToken)).status).toBe(200);
    expect((await app.call("POST", "/v1/auth/mfa/unenroll", { method: "totp" }, user.accessToken)).status).toBe(200);

    const events = await app.events({
      user_id: user.userId,
      type: ["user.mfa.enrolled", "user.mfa.recovery_codes_regenerated", "user.mfa.unenrolled", "user.login.failed"],
    });
    expect(events.map((e) => [e.type, e.reason, e.details.method ?? ""])).toEqual([
      ["user.mfa.unenrolled", "", "totp"],
      ["user.mfa.recovery_codes_regenerated", "", ""],
      ["user.login.failed", "INVALID_CODE", "mfa"],
      ["user.mfa.enrolled", "", "totp"],
    ]);
  });

  it("an admin's change to a user names the key and the fields, never their values", async () => {
    const app = await auditApp(box.server);
    const { body } = await app.signup();
    const c = client();
    const update = await app.call(
      "PATCH",
      `/v1/auth/users/${body.user.id}`,
      { email: "renamed@example.com", app_metadata: { plan: "gold" }, disabled: true },
      undefined,
      c.headers,
    );
    expect(update.status).toBe(200);
    const [event] = await app.events({ type: "user.updated" });
    expect(event).toMatchObject({
      user_id: body.user.id,
      actor_type: "api_key",
      ip_address: c.ip,
      details: { fields: ["appMetadata", "disabled", "email", "emailVerified"] },
    });
    expect(JSON.stringify(event)).not.toContain("renamed@example.com");
    expect(JSON.stringify(event)).not.toContain("gold");
  });
});
