import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grpcCall, grpcClient } from "../helpers/clients.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp.js";
import { authFixture, type AuthFixture } from "./helpers.js";

// Threats: an answer (or a mail) telling whether an address is registered; a reset link used
// twice, after 15 minutes or after a newer one; sessions surviving a password reset or change.

const LINK = /https:\/\/app\.example\.com\/callback\?token=([A-Za-z0-9_-]+)&type=password_reset/;

describe("password reset and change", () => {
  let server: TestServer;
  let sink: SmtpSink;
  let app: AuthFixture;
  const sql = (text: string, params: unknown[] = []) => server.deps.db.dataSource.query(text, params);
  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({ SMTP_URL: sink.url, MAIL_RETRY_MS: "100" });
    app = await authFixture(server);
  });
  afterAll(async () => {
    await server?.stop();
    await sink?.close();
  });

  /** Asks for a reset link and answers the token from the `nth` mail to `email`. */
  async function resetToken(email: string, nth = 1): Promise<string> {
    const res = await app.call("POST", "/v1/auth/password/reset-request", { email });
    expect(res.status).toBe(200);
    const mail = await sink.waitFor(email, { nth });
    const token = LINK.exec(mail.text)?.[1];
    expect(token, mail.text).toBeTruthy();
    return token!;
  }

  const verify = async (token: string) => (await app.call("POST", "/v1/auth/token/verify", { token })).body.valid;
  const login = (email: string, password: string) => app.call("POST", "/v1/auth/login", { email, password });

  it("RequestPasswordReset answers the same for a registered and an unknown address; only the registered one gets mail", async () => {
    const { email } = await app.signup();
    const unknownEmail = `nobody-${Date.now()}@example.com`;
    const unknown = await app.call("POST", "/v1/auth/password/reset-request", { email: unknownEmail });
    const known = await app.call("POST", "/v1/auth/password/reset-request", { email: email.toUpperCase() });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect({ ...known.body, request_id: 0 }).toEqual({ ...unknown.body, request_id: 0 });
    expect(typeof known.body.message).toBe("string");

    const mail = await sink.waitFor(email);
    expect(mail.subject).toMatch(/password/i);
    const link = new URL(LINK.exec(mail.text)![0]);
    expect(link.origin + link.pathname).toBe("https://app.example.com/callback");
    expect(link.searchParams.get("type")).toBe("password_reset");
    expect(mail.html).toContain(link.searchParams.get("token"));

    // Stored hashed, valid 15 minutes; nothing queued, nothing sent for the unknown address.
    const rows = await sql(
      `SELECT token_hash, expires_at, created_at FROM user_tokens WHERE kind = 'password_reset' AND email = $1`,
      [email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toContain(link.searchParams.get("token"));
    expect(new Date(rows[0].expires_at).getTime() - new Date(rows[0].created_at).getTime()).toBe(15 * 60 * 1000);
    expect(await sql(`SELECT id FROM outbox WHERE recipient = $1`, [unknownEmail])).toEqual([]);
    expect(sink.messages.filter((m) => m.to.includes(unknownEmail))).toEqual([]);
  });

  it("ResetPassword sets the password, signs out every session, and the link works once", async () => {
    const { email, password, body } = await app.signup();
    const second = await login(email, password);
    const token = await resetToken(email);

    const res = await app.call("POST", "/v1/auth/password/reset", {
      reset_token: token,
      new_password: "a brand new passphrase",
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["message"]);
    expect(await verify(body.access_token)).toBe(false);
    expect(await verify(second.body.access_token)).toBe(false);
    const old = await login(email, password);
    expect(old.status).toBe(401);
    expect(old.body.reason).toBe("INVALID_CREDENTIALS");
    expect((await login(email, "a brand new passphrase")).status).toBe(200);

    const reused = await app.call("POST", "/v1/auth/password/reset", {
      reset_token: token,
      new_password: "yet another passphrase",
    });
    expect(reused.status).toBe(401);
    expect(reused.body.reason).toBe("INVALID_LINK");
    expect((await login(email, "a brand new passphrase")).status).toBe(200);
  });

  it("a weak or short new password is refused and leaves the link usable", async () => {
    const { email } = await app.signup();
    const token = await resetToken(email);
    const weak = await app.call("POST", "/v1/auth/password/reset", { reset_token: token, new_password: "password123" });
    expect(weak.status).toBe(400);
    expect(weak.body.reason).toBe("WEAK_PASSWORD");
    const short = await app.call("POST", "/v1/auth/password/reset", { reset_token: token, new_password: "short" });
    expect(short.status).toBe(400);
    expect(short.body.reason).toBe("VALIDATION_FAILED");
    const ok = await app.call("POST", "/v1/auth/password/reset", {
      reset_token: token,
      new_password: "a fine long passphrase",
    });
    expect(ok.status).toBe(200);
  });

  it("a new request replaces the previous link; an expired or unknown link is INVALID_LINK", async () => {
    const { email } = await app.signup();
    const first = await resetToken(email, 1);
    const latest = await resetToken(email, 2);
    const stale = await app.call("POST", "/v1/auth/password/reset", {
      reset_token: first,
      new_password: "a fine long passphrase",
    });
    expect(stale.status).toBe(401);
    expect(stale.body.reason).toBe("INVALID_LINK");
    const unknown = await app.call("POST", "/v1/auth/password/reset", {
      reset_token: "gpr_not-a-real-token",
      new_password: "a fine long passphrase",
    });
    expect(unknown.body.reason).toBe("INVALID_LINK");

    // Fifteen minutes later the latest link is dead too.
    await sql(
      `UPDATE user_tokens SET expires_at = now() - interval '1 second' WHERE email = $1 AND consumed_at IS NULL`,
      [email],
    );
    const expired = await app.call("POST", "/v1/auth/password/reset", {
      reset_token: latest,
      new_password: "a fine long passphrase",
    });
    expect(expired.status).toBe(401);
    expect(expired.body.reason).toBe("INVALID_LINK");
  });

  it("ten concurrent resets with the same link: exactly one succeeds", async () => {
    const { email } = await app.signup();
    const token = await resetToken(email);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        app.call("POST", "/v1/auth/password/reset", { reset_token: token, new_password: `concurrent passphrase ${i}` }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    expect(answers.filter((a) => a.status === 401 && a.body.reason === "INVALID_LINK")).toHaveLength(9);
    // The winner's password is the one that took effect.
    const winner = answers.indexOf(ok[0]);
    expect((await login(email, `concurrent passphrase ${winner}`)).status).toBe(200);
  });

  it("over gRPC: RequestPasswordReset and ResetPassword, also for a user without a password", async () => {
    const { email, body } = await app.signup();
    await sql(`UPDATE users SET password_hash = NULL WHERE id = $1`, [body.user.id]);
    const client = grpcClient(server.port, "auth");
    const headers = { "x-service-key": app.key };
    const requested = await grpcCall(client, "RequestPasswordReset", { email }, headers);
    expect(requested.error).toBeUndefined();
    const unknown = await grpcCall(client, "RequestPasswordReset", { email: "nobody-grpc@example.com" }, headers);
    expect(unknown.response).toEqual(requested.response);
    const token = LINK.exec((await sink.waitFor(email)).text)![1];
    const reset = await grpcCall(
      client,
      "ResetPassword",
      { reset_token: token, new_password: "first real passphrase" },
      headers,
    );
    expect(reset.error).toBeUndefined();
    expect(typeof reset.response.message).toBe("string");
    expect((await login(email, "first real passphrase")).status).toBe(200);
    const again = await grpcCall(
      client,
      "ResetPassword",
      { reset_token: token, new_password: "first real passphrase" },
      headers,
    );
    expect(again.error?.code).toBe(16);
    expect(again.reason).toBe("INVALID_LINK");
  });

  it("ChangePassword checks the current password, keeps the current session and ends the others", async () => {
    const { email, password, body } = await app.signup();
    const other = await login(email, password);
    const wrong = await app.call(
      "POST",
      "/v1/auth/password/change",
      { current_password: "not my password", new_password: "a changed passphrase" },
      body.access_token,
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body.reason).toBe("INVALID_CREDENTIALS");
    const weak = await app.call(
      "POST",
      "/v1/auth/password/change",
      { current_password: password, new_password: "password123" },
      body.access_token,
    );
    expect(weak.status).toBe(400);
    expect(weak.body.reason).toBe("WEAK_PASSWORD");
    expect(await verify(other.body.access_token)).toBe(true);
    const missing = await app.call("POST", "/v1/auth/password/change", {
      current_password: password,
      new_password: "a changed passphrase",
    });
    expect(missing.status).toBe(401);
    expect(missing.body.reason).toBe("MISSING_ACCESS_TOKEN");

    const ok = await app.call(
      "POST",
      "/v1/auth/password/change",
      { current_password: password, new_password: "a changed passphrase" },
      body.access_token,
    );
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body)).toEqual(["message"]);
    expect(await verify(body.access_token)).toBe(true);
    expect(await verify(other.body.access_token)).toBe(false);
    const sessions = await app.call("GET", "/v1/auth/sessions", undefined, body.access_token);
    expect(sessions.body.data.map((s: any) => s.is_current)).toEqual([true]);
    expect((await login(email, password)).status).toBe(401);
    expect((await login(email, "a changed passphrase")).status).toBe(200);
  });

  it("ChangePassword over gRPC; a user without a password gets INVALID_CREDENTIALS", async () => {
    const { password, body } = await app.signup();
    const client = grpcClient(server.port, "auth");
    const headers = { "x-service-key": app.key, authorization: `Bearer ${body.access_token}` };
    const ok = await grpcCall(
      client,
      "ChangePassword",
      { current_password: password, new_password: "changed over grpc" },
      headers,
    );
    expect(ok.error).toBeUndefined();
    expect(typeof ok.response.message).toBe("string");
    await sql(`UPDATE users SET password_hash = NULL WHERE id = $1`, [body.user.id]);
    const none = await grpcCall(
      client,
      "ChangePassword",
      { current_password: "changed over grpc", new_password: "another passphrase" },
      headers,
    );
    expect(none.error?.code).toBe(16);
    expect(none.reason).toBe("INVALID_CREDENTIALS");
  });
});
