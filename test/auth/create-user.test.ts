import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../src/domain/account.js";
import { DomainError } from "../../src/domain/errors.js";
import { createUser } from "../../src/flows/auth/users/create-user.js";
import { SYSTEM_ORIGIN } from "../../src/domain/audit.js";
import { connect, connectReason, grpcCall, grpcClient, http } from "../helpers/clients.js";
import { injectConnect } from "../helpers/inject.js";
import { seedApiKey } from "../helpers/seed.js";
import type { TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";

// CreateUser (issue 25, API.md section 7). Threats: an end user (its access token, or a
// publishable key in a page) creating accounts as the project's administrator; a second account
// for an address the project already has, under another spelling of it; a weak password slipping
// in through the admin path; a user created without its audit row.

const PASSWORD = "a sturdy passphrase 1";
let seq = 0;
const newEmail = (label = "made") => `${label}-${Date.now().toString(36)}${(++seq).toString(36)}@example.com`;

describe("CreateUser", () => {
  let server: TestServer;
  let app: AuthFixture;
  let project: Project;
  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
    project = (await server.deps.db.repos.projects.getByLoginId(app.loginId))!;
  });
  afterAll(() => server?.stop());

  const sql = (text: string, params: unknown[]) => server.deps.db.dataSource.query<any[]>(text, params);
  const create = (body: Record<string, unknown>, bearer?: string) => app.call("POST", "/v1/auth/users", body, bearer);
  const login = (email: string, password: string) => app.call("POST", "/v1/auth/login", { email, password });

  it("with a password: the user signs in with it; fields as given; no session, no mail; audited as the API key", async () => {
    const email = newEmail();
    const res = await create({
      email,
      password: PASSWORD,
      email_verified: true,
      metadata: { theme: "dark" },
      app_metadata: { plan: "pro" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      email,
      email_verified: true,
      metadata: { theme: "dark" },
      app_metadata: { plan: "pro" },
      disabled: false,
      mfa_enabled: false,
    });
    expect(res.body.id).toMatch(/^usr_[0-9a-z]{26}$/);
    expect(res.body).not.toHaveProperty("last_login_at");
    expect(res.body).not.toHaveProperty("password_hash");
    const id = res.body.id;

    // Nothing started, nothing sent.
    expect(await sql(`SELECT 1 FROM sessions WHERE user_id = $1`, [id])).toEqual([]);
    expect(await sql(`SELECT 1 FROM outbox WHERE recipient = $1`, [email])).toEqual([]);

    const signedIn = await login(email, PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ id, email_verified: true, app_metadata: { plan: "pro" } });
    const claims = (await app.call("POST", "/v1/auth/token/verify", { token: signedIn.body.access_token })).body.claims;
    expect(claims.app_metadata).toEqual({ plan: "pro" });

    const audit = await sql(
      `SELECT actor_type, actor_id, user_id, target_id, details FROM audit_events WHERE type = 'user.created' AND project_id = $1 AND user_id = $2`,
      [app.projectId, id],
    );
    const [key] = await sql(`SELECT id FROM api_keys WHERE project_id = $1`, [app.projectId]);
    expect(audit).toEqual([
      {
        actor_type: "api_key",
        actor_id: key.id,
        user_id: id,
        target_id: id,
        details: { password: true, email_verified: true },
      },
    ]);
  });

  it("without a password: email_verified false by default, and a password sign-in is INVALID_CREDENTIALS", async () => {
    const email = newEmail("nopass");
    const res = await create({ email });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email, email_verified: false, metadata: {}, app_metadata: {} });
    const [row] = await sql(`SELECT password_hash FROM users WHERE id = $1`, [res.body.id]);
    expect(row.password_hash).toBeNull();
    for (const password of [PASSWORD, ""]) {
      const refused = await login(email, password || "anything at all");
      expect([refused.status, refused.body.reason]).toEqual([401, "INVALID_CREDENTIALS"]);
    }
    const audit = await sql(`SELECT details FROM audit_events WHERE type = 'user.created' AND user_id = $1`, [
      res.body.id,
    ]);
    expect(audit).toEqual([{ details: { password: false, email_verified: false } }]);
  });

  it("an address the project has, in any spelling of it, is 409 EMAIL_EXISTS and writes nothing", async () => {
    const local = `dup-${Date.now().toString(36)}${++seq}`;
    const taken = `${local}@bücher.example`;
    expect((await create({ email: taken, password: PASSWORD })).status).toBe(200);
    const signedUp = await app.signup(newEmail("signedup"));
    const before = await sql(`SELECT count(*)::int AS n FROM audit_events WHERE project_id = $1`, [app.projectId]);
    for (const email of [
      taken,
      `${local.toUpperCase()}@BÜCHER.example`,
      `${local}@xn--bcher-kva.example`,
      signedUp.email.toUpperCase(),
    ]) {
      const res = await create({ email, password: PASSWORD });
      expect([res.status, res.body.reason], email).toEqual([409, "EMAIL_EXISTS"]);
    }
    const after = await sql(`SELECT count(*)::int AS n FROM audit_events WHERE project_id = $1`, [app.projectId]);
    expect(after).toEqual(before);
    // The signed-up user keeps its password.
    expect((await login(signedUp.email, signedUp.password)).status).toBe(200);

    // A look-alike that folds into an ASCII address is no address at all.
    const kelvin = await create({ email: `\u212Aate-${local}@example.com`, password: PASSWORD });
    expect([kelvin.status, kelvin.body.reason]).toEqual([400, "VALIDATION_FAILED"]);
  });

  it("another project may have the same address: uniqueness is per project", async () => {
    const email = newEmail("tenant");
    expect((await create({ email, password: PASSWORD })).status).toBe(200);
    const other = await authFixture(server);
    const res = await other.call("POST", "/v1/auth/users", { email, password: "another sturdy phrase" });
    expect(res.status).toBe(200);
    expect((await other.call("POST", "/v1/auth/login", { email, password: PASSWORD })).body.reason).toBe(
      "INVALID_CREDENTIALS",
    );
    expect((await login(email, PASSWORD)).status).toBe(200);
  });

  it("the password is checked as at Signup: WEAK_PASSWORD, or VALIDATION_FAILED when too short; nothing is made", async () => {
    const email = newEmail("weak");
    const weak = await create({ email, password: "password123" });
    expect([weak.status, weak.body.reason]).toEqual([400, "WEAK_PASSWORD"]);
    const short = await create({ email, password: "short" });
    expect([short.status, short.body.reason]).toEqual([400, "VALIDATION_FAILED"]);
    expect(await sql(`SELECT 1 FROM users WHERE project_id = $1 AND email = $2`, [app.projectId, email])).toEqual([]);
  });

  it("metadata and app_metadata have UpdateUser's caps: 16 KiB and 4 KiB of JSON", async () => {
    const big = await create({ email: newEmail("big"), app_metadata: { blob: "x".repeat(5000) } });
    expect([big.status, big.body.reason]).toEqual([400, "VALIDATION_FAILED"]);
    expect(big.body.violations[0].field).toBe("app_metadata");
    const huge = await create({ email: newEmail("huge"), metadata: { blob: "x".repeat(17_000) } });
    expect([huge.status, huge.body.reason]).toEqual([400, "VALIDATION_FAILED"]);
    // The flow holds the same caps when called without the API's validation.
    const direct = createUser(
      server.deps,
      project,
      { kind: "admin" },
      {
        email: newEmail("direct"),
        appMetadata: { blob: "x".repeat(5000) },
      },
      SYSTEM_ORIGIN,
    );
    await expect(direct).rejects.toMatchObject({ reason: "VALIDATION_FAILED" });
  });

  it("a user access token is 403 ADMIN_REQUIRED, even for a new address; a publishable key or a key without users:write is 403 SCOPE_REQUIRED", async () => {
    const { body } = await app.signup(newEmail("caller"));
    const email = newEmail("by-user");
    const asUser = await create({ email, password: PASSWORD }, body.access_token);
    expect([asUser.status, asUser.body.reason]).toEqual([403, "ADMIN_REQUIRED"]);

    const viaConnect = await injectConnect(
      server.handle,
      "auth",
      "CreateUser",
      { email },
      { "x-service-key": app.key, authorization: `Bearer ${body.access_token}` },
    );
    expect([viaConnect.status, connectReason(viaConnect.body)]).toEqual([403, "ADMIN_REQUIRED"]);

    const publishable = await seedApiKey(server.deps, project, {
      kind: "publishable",
      scopes: ["auth:read", "auth:write"],
    });
    const withPublishable = await app.call("POST", "/v1/auth/users", { email }, undefined, {
      "x-service-key": publishable.key,
    });
    expect([withPublishable.status, withPublishable.body.reason]).toEqual([403, "SCOPE_REQUIRED"]);
    const readOnly = await seedApiKey(server.deps, project, { scopes: ["users:read", "auth:write"] });
    const withoutScope = await app.call("POST", "/v1/auth/users", { email }, undefined, {
      "x-service-key": readOnly.key,
    });
    expect([withoutScope.status, withoutScope.body.reason]).toEqual([403, "SCOPE_REQUIRED"]);
    // The hosted pages' credential reaches no admin RPC either.
    const page = await injectConnect(
      server.handle,
      "auth",
      "CreateUser",
      { email },
      { "x-gatehouse-page": app.loginId, origin: new URL(server.deps.config.publicUrl).origin },
    );
    expect([page.status, connectReason(page.body)]).toEqual([403, "SCOPE_REQUIRED"]);

    expect(await sql(`SELECT 1 FROM users WHERE project_id = $1 AND email = $2`, [app.projectId, email])).toEqual([]);

    // At the flow's depth: the user actor is refused before anything is looked at.
    await expect(
      createUser(server.deps, project, { kind: "user", userId: body.user.id }, { email }, SYSTEM_ORIGIN),
    ).rejects.toEqual(expect.any(DomainError));
  });

  it("works whatever the project's signup settings: closed signups do not apply to the administrator", async () => {
    const closed = await authFixture(server);
    const patched = await http(`${server.url}/v1/projects/${closed.projectId}`, {
      method: "PATCH",
      headers: await closed.admin(),
      body: { signups: "closed" },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const email = newEmail("closed");
    const signup = await closed.call("POST", "/v1/auth/signup", { email, password: PASSWORD });
    expect([signup.status, signup.body.reason]).toEqual([403, "SIGNUPS_CLOSED"]);
    const res = await closed.call("POST", "/v1/auth/users", { email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect((await closed.call("POST", "/v1/auth/login", { email, password: PASSWORD })).status).toBe(200);
  });

  it("answers on the wire alike: REST, Connect and gRPC, with EMAIL_EXISTS as 409 / already_exists / 6", async () => {
    const email = newEmail("wire");
    const rest = await http(`${server.url}/v1/auth/users`, {
      headers: { "x-service-key": app.key },
      body: { email, password: PASSWORD, email_verified: true },
    });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ email, email_verified: true });

    const again = await connect(server.url, "auth", "CreateUser", { email }, { "x-service-key": app.key });
    expect([again.status, again.body.code, connectReason(again.body)]).toEqual([409, "already_exists", "EMAIL_EXISTS"]);
    const other = newEmail("wire-connect");
    const made = await connect(
      server.url,
      "auth",
      "CreateUser",
      { email: other, emailVerified: false, appMetadata: { role: "viewer" } },
      { "x-service-key": app.key },
    );
    expect(made.status).toBe(200);
    // Connect's JSON answers with the proto's field names, as REST does; requests may use either.
    expect(made.body).toMatchObject({ email: other, app_metadata: { role: "viewer" } });

    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "CreateUser",
      { email },
      { "x-service-key": app.key },
    );
    expect([viaGrpc.error?.code, viaGrpc.reason]).toEqual([6, "EMAIL_EXISTS"]);
  });
});
