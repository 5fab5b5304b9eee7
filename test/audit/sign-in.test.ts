import { describe, expect, it } from "vitest";
import { auditApp, client, useAuditServer } from "./helpers.js";

// Threat: an attacker guessing passwords, or one who got in, leaves no trace the organization
// can read; or the trace itself leaks what it should not (the password, an address that is no
// account's). Every sign-in outcome is recorded with who, when and from where.
describe("audit: sign-ins and signups", () => {
  const box = useAuditServer();

  it("records a signup and a sign-in with the user as actor, the client's IP and user agent", async () => {
    const app = await auditApp(box.server);
    const c = client();
    const email = `alice-${Date.now()}@example.com`;
    const signup = await app.call(
      "POST",
      "/v1/auth/signup",
      { email, password: "a sturdy passphrase 1" },
      undefined,
      c.headers,
    );
    expect(signup.status).toBe(200);
    const userId = signup.body.user.id;
    const login = await app.call(
      "POST",
      "/v1/auth/login",
      { email, password: "a sturdy passphrase 1" },
      undefined,
      c.headers,
    );
    expect(login.status).toBe(200);

    const events = await app.events({ user_id: userId });
    expect(events.map((e) => e.type)).toEqual(["user.login.succeeded", "user.signup"]);
    for (const e of events) {
      expect(e).toMatchObject({
        project_id: app.projectId,
        user_id: userId,
        actor_type: "user",
        actor_id: userId,
        ip_address: c.ip,
        user_agent: c.userAgent,
        reason: "",
        details: { method: "password" },
      });
      expect(e.id).toMatch(/^aev_/);
      expect(Math.abs(Date.parse(e.created_at) - Date.now())).toBeLessThan(60_000);
    }
  });

  it("records a wrong password with its reason and the user, and an unknown email as an anonymous hash", async () => {
    const app = await auditApp(box.server);
    const { email, body } = await app.signup();
    const c = client();
    const wrong = await app.call(
      "POST",
      "/v1/auth/login",
      { email, password: "not the password at all" },
      undefined,
      c.headers,
    );
    expect(wrong.status).toBe(401);
    const unknownEmail = `nobody-${Date.now()}@example.com`;
    const unknown = await app.call(
      "POST",
      "/v1/auth/login",
      { email: unknownEmail, password: "not the password at all" },
      undefined,
      c.headers,
    );
    expect(unknown.status).toBe(401);
    const again = await app.call(
      "POST",
      "/v1/auth/login",
      { email: unknownEmail.toUpperCase(), password: "another guess entirely" },
      undefined,
      c.headers,
    );
    expect(again.status).toBe(401);

    const failed = await app.events({ type: "user.login.failed" });
    expect(failed).toHaveLength(3);
    const [second, anonymous, known] = failed;
    expect(known).toMatchObject({
      user_id: body.user.id,
      actor_type: "user",
      actor_id: body.user.id,
      reason: "INVALID_CREDENTIALS",
      ip_address: c.ip,
      user_agent: c.userAgent,
    });
    expect(anonymous).toMatchObject({
      user_id: "",
      actor_type: "anonymous",
      actor_id: "",
      reason: "INVALID_CREDENTIALS",
      ip_address: c.ip,
    });
    expect(anonymous.email_hash).toMatch(/^[0-9a-f]{32}$/);
    // One address, however it is written, is one hash: repeated attempts show as such.
    expect(second.email_hash).toBe(anonymous.email_hash);
    expect(known.email_hash).not.toBe(anonymous.email_hash);
    // Neither the address nor the password is anywhere in what the log answers.
    const text = JSON.stringify(failed);
    for (const secret of [
      unknownEmail,
      unknownEmail.split("@")[0],
      email,
      "not the password at all",
      "another guess entirely",
    ])
      expect(text).not.toContain(secret);
  });

  it("records USER_DISABLED for a disabled user's sign-in", async () => {
    const app = await auditApp(box.server);
    const { email, password, body } = await app.signup();
    const disable = await app.call("PATCH", `/v1/auth/users/${body.user.id}`, { disabled: true });
    expect(disable.status).toBe(200);
    expect((await app.call("POST", "/v1/auth/login", { email, password })).status).toBe(403);
    const [event] = await app.events({ type: "user.login.failed", user_id: body.user.id });
    expect(event).toMatchObject({ reason: "USER_DISABLED", actor_type: "user", actor_id: body.user.id });
  });

  it("a signup refused with EMAIL_EXISTS leaves no signup event (rolled back with it)", async () => {
    const app = await auditApp(box.server);
    const { email } = await app.signup();
    const dup = await app.call("POST", "/v1/auth/signup", { email, password: "another sturdy passphrase" });
    expect(dup.status).toBe(409);
    expect((await app.events({ type: "user.signup" })).map((e) => e.type)).toEqual(["user.signup"]);
  });

  it("a failed audit write never changes a refusal's answer; a success and its event commit together", async () => {
    const app = await auditApp(box.server);
    const { email, password, body } = await app.signup();
    const sql = (text: string) => box.server.deps.db.dataSource.query(text);
    // A fault in the table itself, for this project only: every insert of its events fails.
    await sql(
      `CREATE FUNCTION audit_fault_${app.projectId}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit write refused'; END $$`,
    );
    await sql(
      `CREATE TRIGGER audit_fault_${app.projectId} BEFORE INSERT ON audit_events FOR EACH ROW WHEN (NEW.project_id = '${app.projectId}') EXECUTE FUNCTION audit_fault_${app.projectId}()`,
    );
    try {
      const wrong = await app.call("POST", "/v1/auth/login", { email, password: "wrong wrong wrong" });
      expect([wrong.status, wrong.body.reason]).toEqual([401, "INVALID_CREDENTIALS"]);
      // The sign-in's event is part of its statement: no event, no session either.
      const right = await app.call("POST", "/v1/auth/login", { email, password });
      expect(right.status).toBe(500);
      const [{ n }] = await box.server.deps.db.dataSource.query(
        `SELECT count(*)::int AS n FROM sessions WHERE user_id = $1`,
        [body.user.id],
      );
      expect(n).toBe(1);
    } finally {
      await sql(`DROP TRIGGER audit_fault_${app.projectId} ON audit_events`);
    }
    expect((await app.call("POST", "/v1/auth/login", { email, password })).status).toBe(200);
    expect((await app.events({ user_id: body.user.id })).map((e) => e.type)).toEqual([
      "user.login.succeeded",
      "user.signup",
    ]);
  });

  it("records a sign-in refused by a rate limit as rate_limit.exceeded, once", async () => {
    const app = await auditApp(box.server, { rateLimits: { signInFailuresPerAccount: 2 } });
    const { email } = await app.signup();
    const c = client();
    const answers: number[] = [];
    for (let i = 0; i < 3; i++)
      answers.push(
        (await app.call("POST", "/v1/auth/login", { email, password: "wrong wrong wrong" }, undefined, c.headers))
          .status,
      );
    expect(answers).toEqual([401, 401, 429]);
    const events = await app.events({ type: ["user.login.failed", "rate_limit.exceeded"] });
    expect(events.map((e) => [e.type, e.reason])).toEqual([
      ["rate_limit.exceeded", "RATE_LIMITED"],
      ["user.login.failed", "INVALID_CREDENTIALS"],
      ["user.login.failed", "INVALID_CREDENTIALS"],
    ]);
    expect(events[0]).toMatchObject({ ip_address: c.ip, details: { method: "password" } });
  });

  it("records a one-time code and a magic link refused by a rate limit as the flow's rate_limit.exceeded (its method), once each", async () => {
    const app = await auditApp(box.server, { rateLimits: { verifyAttemptsPerChallenge: 2, failuresPerIp: 2 } });
    const email = `guessed-${Date.now()}@example.com`;
    const c = client();
    const otp = () => app.call("POST", "/v1/auth/otp/verify", { email, otp: "000000" }, undefined, c.headers);
    const otpAnswers: number[] = [];
    for (let i = 0; i < 4; i++) otpAnswers.push((await otp()).status);
    expect(otpAnswers).toEqual([401, 401, 429, 429]);
    const other = client();
    const link = () =>
      app.call("POST", "/v1/auth/magic-link/verify", { token: "gml_not_a_link" }, undefined, other.headers);
    const linkAnswers: number[] = [];
    for (let i = 0; i < 4; i++) linkAnswers.push((await link()).status);
    expect(linkAnswers).toEqual([401, 401, 429, 429]);

    const limited = await app.events({ type: "rate_limit.exceeded" });
    expect(limited.map((e) => [e.ip_address, e.details.method, e.details.rpc])).toEqual([
      [other.ip, "magic_link", undefined],
      [c.ip, "otp", undefined],
    ]);
    expect(limited[1].email_hash).not.toBe("");
  });
});
