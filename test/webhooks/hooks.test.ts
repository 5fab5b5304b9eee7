import { createLocalJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { eventually } from "../helpers/eventually.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";
import {
  expectReason,
  newEmail,
  passwordlessProject,
  verifiedClaims,
  type PasswordlessProject,
} from "../auth/passwordless-helpers.js";

// Synchronous hooks (API.md section 7, issue 25), against a real receiver that verifies every
// call with the `standardwebhooks` package: before_user_created allows or denies (with the
// message the user sees), custom_access_token adds claims that VerifyToken and an offline
// JWKS check both show, and a hook that times out follows its failure policy.

const PASSWORD = "a sturdy passphrase 1";
const CODE = /\b(\d{6})\b/;

describe("hooks", () => {
  const ctx = useMessagingServer({ smtp: true, env: { OUTBOUND_ALLOW_HOSTS: "127.0.0.1/32" } });
  const { sql } = ctx;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver("/hook");
  });
  afterAll(() => receiver?.close());

  async function setHook(app: PasswordlessProject, kind: string, body: Record<string, unknown> = {}) {
    const res = await http(`${ctx.server.url}/v1/projects/${app.projectId}/hooks/${kind}`, {
      method: "PUT",
      headers: app.management,
      body: { url: receiver.url, ...body },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (res.body.secret) receiver.secrets = [res.body.secret];
    return res.body;
  }

  const usersNamed = async (app: PasswordlessProject, email: string) =>
    (await sql(`SELECT id FROM users WHERE project_id = $1 AND email_normalized = $2`, [app.projectId, email])).length;

  it("before_user_created: a deny refuses the signup with the hook's message and writes nothing", async () => {
    const app = await passwordlessProject(ctx.server);
    const set = await setHook(app, "before_user_created");
    expect(set).toMatchObject({ kind: "before_user_created", url: receiver.url, failure_policy: "closed" });
    expect(set.secret).toMatch(/^whsec_/);
    receiver.behaviour = {
      kind: "json",
      answer: (body) =>
        body.user.email.endsWith("@blocked.example")
          ? { decision: "deny", message: "Accounts from blocked.example are not accepted." }
          : { decision: "allow" },
    };
    const refused = await app.call("POST", "/v1/auth/signup", { email: "eve@blocked.example", password: PASSWORD });
    expectReason(refused, 403, "SIGNUP_REFUSED_BY_HOOK");
    expect(refused.body.message).toBe("Accounts from blocked.example are not accepted.");
    expect(await usersNamed(app, "eve@blocked.example")).toBe(0);
    const [call] = await receiver.waitFor((r) => r.body.user?.email === "eve@blocked.example");
    expect(call.body).toMatchObject({ type: "before_user_created", method: "password", project_id: app.projectId });
    expect(JSON.stringify(call.body)).not.toContain(PASSWORD);

    const email = newEmail("welcome");
    const allowed = await app.call("POST", "/v1/auth/signup", { email, password: PASSWORD });
    expect(allowed.status).toBe(200);
    // Signing in an existing user asks nothing.
    const calls = receiver.received.length;
    expect((await app.call("POST", "/v1/auth/login", { email, password: PASSWORD })).status).toBe(200);
    expect(receiver.received.length).toBe(calls);
  });

  it("before_user_created is asked when a one-time code would create the user", async () => {
    const app = await passwordlessProject(ctx.server);
    await setHook(app, "before_user_created");
    receiver.behaviour = { kind: "json", answer: () => ({ decision: "deny", message: "Invitation only." }) };
    const email = newEmail("otp");
    expect((await app.call("POST", "/v1/auth/otp/send", { email })).status).toBe(200);
    const code = CODE.exec((await ctx.smtp.waitFor(email)).text)![1];
    const verify = await app.call("POST", "/v1/auth/otp/verify", { email, otp: code });
    expectReason(verify, 403, "SIGNUP_REFUSED_BY_HOOK");
    expect(verify.body.message).toBe("Invitation only.");
    expect(await usersNamed(app, email)).toBe(0);
    const [call] = await receiver.waitFor((r) => r.body.user?.email === email);
    expect(call.body).toMatchObject({ method: "otp", user: { email_verified: true } });
  });

  it("a hook that times out inside a one-time code's sign-in refuses it (closed) without holding the database", async () => {
    const app = await passwordlessProject(ctx.server);
    await setHook(app, "before_user_created");
    receiver.behaviour = { kind: "hang" };
    const email = newEmail("otp-hang");
    expect((await app.call("POST", "/v1/auth/otp/send", { email })).status).toBe(200);
    const code = CODE.exec((await ctx.smtp.waitFor(email)).text)![1];
    expectReason(await app.call("POST", "/v1/auth/otp/verify", { email, otp: code }), 503, "SERVICE_UNAVAILABLE");
    expect(await usersNamed(app, email)).toBe(0);
    // The failure's audit row is written after the sign-in's transaction, not inside it.
    const audited = async () =>
      (
        await http(`${ctx.server.url}/v1/audit-events?project_id=${app.projectId}&type=hook.failed`, {
          method: "GET",
          headers: app.management,
        })
      ).body.data.length === 1;
    await eventually("hook.failed recorded", audited);
  });

  it("a hook that times out: closed refuses (503), open lets the signup through; both audited once", async () => {
    const app = await passwordlessProject(ctx.server);
    await setHook(app, "before_user_created");
    receiver.behaviour = { kind: "hang" };
    const closedEmail = newEmail("closed");
    const started = performance.now();
    const closed = await app.call("POST", "/v1/auth/signup", { email: closedEmail, password: PASSWORD });
    expectReason(closed, 503, "SERVICE_UNAVAILABLE");
    // Bounded by the hook's 2 s deadline, not by the receiver.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(await usersNamed(app, closedEmail)).toBe(0);

    await setHook(app, "before_user_created", { failure_policy: "open" });
    const open = await app.call("POST", "/v1/auth/signup", { email: newEmail("open"), password: PASSWORD });
    expect(open.status).toBe(200);
    const audit = await http(`${ctx.server.url}/v1/audit-events?project_id=${app.projectId}&type=hook.failed`, {
      method: "GET",
      headers: app.management,
    });
    // One event per project, kind and minute, however many requests failed.
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0].details).toMatchObject({ kind: "before_user_created", failure_policy: "closed" });
    expect(audit.body.data[0].details.error).toContain("timed out");
  });

  it("custom_access_token: added claims reach VerifyToken and offline checks; reserved ones stay", async () => {
    const app = await passwordlessProject(ctx.server);
    const email = newEmail("claims");
    expect((await app.call("POST", "/v1/auth/signup", { email, password: PASSWORD })).status).toBe(200);
    await setHook(app, "custom_access_token");
    let seen: any;
    receiver.behaviour = {
      kind: "json",
      answer: (body) => {
        seen = body;
        return { claims: { ...body.claims, roles: ["editor"], tenant: "acme", sub: "usr_forged", amr: ["hwk"] } };
      },
    };
    const login = await app.call("POST", "/v1/auth/login", { email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(seen).toMatchObject({ type: "custom_access_token", claims: { email, amr: ["pwd"] }, user: { email } });
    const claims = await verifiedClaims(app, login.body.access_token);
    expect(claims.custom_claims).toEqual({ roles: ["editor"], tenant: "acme" });
    expect(claims.sub).toBe(login.body.user.id);
    expect(claims.amr).toEqual(["pwd"]);
    // Offline, as a backend checks it with the project's JWKS.
    const loginId = (await sql(`SELECT login_id FROM projects WHERE id = $1`, [app.projectId]))[0].login_id;
    const jwks = await http(`${ctx.server.url}/v1/auth/${loginId}/.well-known/jwks.json`, { method: "GET" });
    const { payload } = await jwtVerify(login.body.access_token, createLocalJWKSet(jwks.body));
    expect(payload).toMatchObject({ roles: ["editor"], tenant: "acme", sub: login.body.user.id, amr: ["pwd"] });
    // And at refresh.
    receiver.behaviour = { kind: "json", answer: (body) => ({ claims: { ...body.claims, roles: ["admin"] } }) };
    const refreshed = await app.call("POST", "/v1/auth/token/refresh", { refresh_token: login.body.refresh_token });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect((await verifiedClaims(app, refreshed.body.access_token)).custom_claims).toEqual({ roles: ["admin"] });
  });

  it("custom_access_token: oversize claims or a timeout under open give a token without extras; closed refuses", async () => {
    const app = await passwordlessProject(ctx.server);
    const email = newEmail("big");
    expect((await app.call("POST", "/v1/auth/signup", { email, password: PASSWORD })).status).toBe(200);
    const set = await setHook(app, "custom_access_token");
    expect(set.failure_policy).toBe("open");
    receiver.behaviour = { kind: "json", answer: () => ({ claims: { blob: "x".repeat(5000) } }) };
    const big = await app.call("POST", "/v1/auth/login", { email, password: PASSWORD });
    expect(big.status).toBe(200);
    expect((await verifiedClaims(app, big.body.access_token)).custom_claims).toEqual({});

    receiver.behaviour = { kind: "hang" };
    expect((await app.call("POST", "/v1/auth/login", { email, password: PASSWORD })).status).toBe(200);
    await setHook(app, "custom_access_token", { failure_policy: "closed" });
    expectReason(await app.call("POST", "/v1/auth/login", { email, password: PASSWORD }), 503, "SERVICE_UNAVAILABLE");
    // Without the hook, sign-in is as before.
    const removed = await http(`${ctx.server.url}/v1/projects/${app.projectId}/hooks/custom_access_token`, {
      method: "DELETE",
      headers: app.management,
    });
    expect(removed.body).toMatchObject({ deleted: true, kind: "custom_access_token" });
    expect((await app.call("POST", "/v1/auth/login", { email, password: PASSWORD })).status).toBe(200);
  });

  it("SetHook keeps the secret unless asked; ListHooks never shows it; bad input is refused with reasons", async () => {
    const app = await passwordlessProject(ctx.server);
    const first = await setHook(app, "custom_access_token");
    const again = await setHook(app, "custom_access_token", { failure_policy: "closed" });
    expect(again.secret).toBe("");
    const rotated = await setHook(app, "custom_access_token", { rotate_secret: true });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(first.secret);
    const list = await http(`${ctx.server.url}/v1/projects/${app.projectId}/hooks`, {
      method: "GET",
      headers: app.management,
    });
    expect(list.body.data).toEqual([expect.objectContaining({ kind: "custom_access_token", failure_policy: "open" })]);
    expect(JSON.stringify(list.body)).not.toContain("whsec_");
    const put = (kind: string, body: Record<string, unknown>) =>
      http(`${ctx.server.url}/v1/projects/${app.projectId}/hooks/${kind}`, {
        method: "PUT",
        headers: app.management,
        body,
      });
    const fields = (res: { body: any }) => res.body.violations?.map((v: { field: string }) => v.field);
    const plain = await put("before_user_created", { url: "http://8.8.8.8/x" });
    expectReason(plain, 400, "VALIDATION_FAILED");
    expect(plain.body.violations[0]).toEqual({ field: "url", description: "must be https" });
    const metadata = await put("before_user_created", { url: "https://169.254.169.254/latest" });
    expect(fields(metadata)).toEqual(["url"]);
    expect(fields(await put("after_user_created", { url: "https://hooks.example.com/x" }))).toEqual(["kind"]);
    expect(
      fields(await put("before_user_created", { url: "https://hooks.example.com/x", failure_policy: "maybe" })),
    ).toEqual(["failure_policy"]);
  });
});
