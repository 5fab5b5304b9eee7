import { describe, expect, it } from "vitest";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { auditApp, BEHIND_PROXY, client } from "./helpers.js";

const LINK = (type: string) => new RegExp(`https://app\\.example\\.com/callback\\?token=([A-Za-z0-9_-]+)&type=${type}`);

// Threat: an account taken over through its mailbox (a reset link, an address change) leaves no
// trace; or the trace gives the new address or the link away.
describe("audit: changes proven by an emailed link", () => {
  const env = useMessagingServer({ smtp: true, env: BEHIND_PROXY });

  it("a password reset and a confirmed email change, as the user from the link's client", async () => {
    const app = await auditApp(env.server);
    const { email, body } = await app.signup();
    const userId = body.user.id;
    expect((await app.call("POST", "/v1/auth/password/reset-request", { email })).status).toBe(200);
    const resetToken = LINK("password_reset").exec((await env.smtp.waitFor(email)).text)![1];
    const c = client();
    const reset = await app.call(
      "POST",
      "/v1/auth/password/reset",
      { reset_token: resetToken, new_password: "a brand new passphrase 3" },
      undefined,
      c.headers,
    );
    expect(reset.status).toBe(200);

    const login = await app.call("POST", "/v1/auth/login", { email, password: "a brand new passphrase 3" });
    const newEmail = `moved-${Date.now()}@example.com`;
    expect(
      (await app.call("PATCH", `/v1/auth/users/${userId}`, { email: newEmail }, login.body.access_token)).status,
    ).toBe(200);
    const changeToken = LINK("email_change").exec((await env.smtp.waitFor(newEmail)).text)![1];
    expect((await app.call("POST", "/v1/auth/email/verify", { token: changeToken }, undefined, c.headers)).status).toBe(
      200,
    );

    const events = await app.events({
      user_id: userId,
      type: ["user.password.reset", "user.email.changed", "user.updated"],
    });
    expect(events.map((e) => [e.type, e.actor_type, e.actor_id])).toEqual([
      ["user.email.changed", "user", userId],
      ["user.updated", "user", userId],
      ["user.password.reset", "user", userId],
    ]);
    expect(events[0]).toMatchObject({ ip_address: c.ip, user_agent: c.userAgent });
    expect(events[2]).toMatchObject({ ip_address: c.ip, user_agent: c.userAgent });
    const text = JSON.stringify(events);
    for (const secret of [newEmail, resetToken, changeToken, "a brand new passphrase 3"])
      expect(text).not.toContain(secret);
  });

  it("a wrong one-time code and a bad magic link are failed sign-ins with their reason", async () => {
    const app = await auditApp(env.server);
    const email = `otp-${Date.now()}@example.com`;
    expect((await app.call("POST", "/v1/auth/otp/send", { email, channel: "email" })).status).toBe(200);
    const code = /\b(\d{6})\b/.exec((await env.smtp.waitFor(email)).text)![1];
    const c = client();
    const wrong = await app.call(
      "POST",
      "/v1/auth/otp/verify",
      { email, otp: code === "000000" ? "111111" : "000000" },
      undefined,
      c.headers,
    );
    expect(wrong.status).toBe(401);
    const link = await app.call(
      "POST",
      "/v1/auth/magic-link/verify",
      { token: "gml_not-a-real-link-token" },
      undefined,
      c.headers,
    );
    expect(link.status).toBe(401);

    const failed = await app.events({ type: "user.login.failed" });
    expect(failed.map((e) => [e.reason, e.details.method, e.actor_type, e.ip_address])).toEqual([
      ["INVALID_LINK", "magic_link", "anonymous", c.ip],
      ["INVALID_CODE", "otp", "anonymous", c.ip],
    ]);
    expect(failed[1].email_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(failed)).not.toContain(email);
  });
});
