import { generateKeyPairSync } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { http, type HttpAnswer } from "../helpers/clients.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { useSsoWorld } from "../auth/sso-helpers.js";

// UpdateSsoConnection (PATCH /v1/sso-connections/{id}), and the order of the buttons on the
// hosted sign-in page. Threats: a secret or Apple key leaking through an answer or the audit
// log, one organization changing another's connection, and an update that makes a connection
// its creation would have refused.

const CONTOSO = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const FABRIKAM = "0b3f5a1e-8c2d-4e6f-9a7b-1c2d3e4f5a6b";
const SECRET = "first-client-secret-7c1d";

const pem = (type: "ec" | "rsa", options: Record<string, unknown>, format: "pkcs8" | "sec1" = "pkcs8") =>
  generateKeyPairSync(type as "ec", options as { namedCurve: string }).privateKey.export({
    type: format,
    format: "pem",
  }) as string;
const appleKey = () => pem("ec", { namedCurve: "P-256" });

const world = useSsoWorld();
const { ctx } = world;
let app: AuthFixture;
let stranger: AuthFixture;

beforeAll(async () => {
  app = await authFixture(ctx.server);
  stranger = await authFixture(ctx.server);
});

async function create(body: Record<string, unknown>, fixture: AuthFixture = app): Promise<Record<string, any>> {
  const res = await http(`${ctx.server.url}/v1/projects/${fixture.projectId}/sso-connections`, {
    headers: await fixture.admin(),
    body: { name: "Okta", issuer: "https://idp.example.com", client_id: "client-1", client_secret: SECRET, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function update(id: string, body: Record<string, unknown>, fixture: AuthFixture = app): Promise<HttpAnswer> {
  return http(`${ctx.server.url}/v1/sso-connections/${id}`, {
    method: "PATCH",
    headers: await fixture.admin(),
    body,
  });
}

const fields = (res: HttpAnswer) => (res.body.violations ?? []).map((v: { field: string }) => v.field);

describe("UpdateSsoConnection", () => {
  it("each field given changes alone; every other stays as it was", async () => {
    let current = await create({ scopes: ["email"] });
    const changes: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ name: "Okta (staff)" }, { name: "Okta (staff)" }],
      // A moved URL needs the secret again (issue 46).
      [{ issuer: "https://login.example.org", client_secret: "moved-secret" }, { issuer: "https://login.example.org" }],
      [{ client_id: "client-2" }, { client_id: "client-2" }],
      [{ scopes: ["email", "groups"] }, { scopes: ["openid", "email", "groups"] }],
      [{ trust_emails: true }, { trust_emails: true }],
      [{ position: 7 }, { position: 7 }],
      [{ client_secret: "second-client-secret" }, {}],
    ];
    for (const [given, changed] of changes) {
      const res = await update(current.id, given);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ ...current, ...changed });
      current = res.body;
    }
    // An empty list leaves the scopes; false is a value, not an absence.
    const same = await update(current.id, { scopes: [], trust_emails: false });
    expect(same.body).toEqual({ ...current, trust_emails: false });
    // The list reads what the update answered.
    const listed = await http(`${ctx.server.url}/v1/projects/${app.projectId}/sso-connections?limit=100`, {
      headers: await app.admin(),
    });
    expect(listed.body.data.find((c: { id: string }) => c.id === current.id)).toEqual(same.body);
    expect(JSON.stringify(listed.body)).not.toContain("second-client-secret");
  });

  it("is checked against the connection it makes, as at creation", async () => {
    const oidc = await create({});
    expect(fields(await update(oidc.id, { issuer: "" }))).toEqual(["issuer"]);
    expect(fields(await update(oidc.id, { issuer: "https://10.0.0.1" }))).toEqual(["issuer"]);
    expect(fields(await update(oidc.id, { scopes: ["openid", "a b"] }))).toEqual(["scopes[1]"]);
    expect(fields(await update(oidc.id, { hosted_domain: "example.com" }))).toEqual(["hosted_domain"]);
    expect(fields(await update(oidc.id, { token_url: "https://idp.example.com/token" }))).toEqual(["token_url"]);
    expect(fields(await update(oidc.id, { team_id: "TEAM123456", private_key: appleKey() }))).toEqual([
      "team_id",
      "private_key",
    ]);
    expect(fields(await update(oidc.id, { allowed_tenants: [CONTOSO] }))).toEqual(["allowed_tenants"]);
    expect(fields(await update(oidc.id, { any_tenant: true }))).toEqual(["any_tenant"]);
    // Nothing of a refused update was kept.
    const unchanged = await update(oidc.id, {});
    expect(unchanged.body).toEqual(oidc);

    const github = await create({ provider: "github", issuer: "" });
    expect(fields(await update(github.id, { trust_emails: true }))).toEqual(["trust_emails"]);
    expect(fields(await update(github.id, { issuer: "https://github.com" }))).toEqual(["issuer"]);
    // GitHub Enterprise: its three endpoints replace GitHub's.
    const enterprise = {
      authorization_url: "https://github.example.com/login/oauth/authorize",
      token_url: "https://github.example.com/login/oauth/access_token",
      userinfo_url: "https://github.example.com/api/v3/user",
    };
    const moved = await update(github.id, { ...enterprise, client_secret: "enterprise-secret" });
    expect(moved.body, JSON.stringify(moved.body)).toMatchObject(enterprise);
  });

  it("google's hosted_domain is set, and removed with an empty value", async () => {
    const google = await create({ provider: "google", issuer: "" });
    const set = await update(google.id, { hosted_domain: "example.com" });
    expect(set.body.hosted_domain).toBe("example.com");
    expect(fields(await update(google.id, { hosted_domain: "Example.com/x" }))).toEqual(["hosted_domain"]);
    const cleared = await update(google.id, { hosted_domain: "" });
    expect(cleared.body, JSON.stringify(cleared.body)).toMatchObject({
      hosted_domain: "",
      issuer: "https://accounts.google.com",
    });
  });

  it("generic_oauth2's claim mapping is replaced when given", async () => {
    const generic = await create({
      provider: "generic_oauth2",
      issuer: "",
      authorization_url: "https://oauth.example.com/authorize",
      token_url: "https://oauth.example.com/token",
      userinfo_url: "https://oauth.example.com/me",
      claim_mapping: { id: "user_id" },
    });
    const res = await update(generic.id, { claim_mapping: { id: "uid", email: "mail" } });
    expect(res.body.claim_mapping).toEqual({ id: "uid", email: "mail" });
    expect(fields(await update(generic.id, { userinfo_url: "https://10.0.0.1/me" }))).toEqual(["userinfo_url"]);
  });

  it("microsoft's allowlist is replaced (lower case, GUIDs only), and any_tenant removes it", async () => {
    const microsoft = await create({ provider: "microsoft", issuer: "", allowed_tenants: [CONTOSO] });
    expect(microsoft.allowed_tenants).toEqual([CONTOSO]);
    const replaced = await update(microsoft.id, { allowed_tenants: [FABRIKAM.toUpperCase(), CONTOSO] });
    expect(replaced.body.allowed_tenants).toEqual([FABRIKAM, CONTOSO]);
    const kept = await update(microsoft.id, { name: "Entra ID" });
    expect(kept.body.allowed_tenants).toEqual([FABRIKAM, CONTOSO]);
    expect(fields(await update(microsoft.id, { allowed_tenants: ["contoso.onmicrosoft.com"] }))).toEqual([
      "allowed_tenants[0]",
    ]);
    expect(fields(await update(microsoft.id, { any_tenant: true, allowed_tenants: [CONTOSO] }))).toEqual([
      "any_tenant",
    ]);
    const any = await update(microsoft.id, { any_tenant: true });
    expect(any.body.allowed_tenants).toEqual([]);
  });

  it("apple's team, key id and key change; the key is checked, sealed at rest and never answered", async () => {
    const first = appleKey();
    const apple = await create({
      provider: "apple",
      issuer: "",
      client_secret: undefined,
      team_id: "TEAM123456",
      key_id: "KEY1234567",
      private_key: first,
    });
    expect(apple).toMatchObject({ issuer: "https://appleid.apple.com", team_id: "TEAM123456", key_id: "KEY1234567" });
    const second = appleKey();
    const rotated = await update(apple.id, { key_id: "KEY7654321", private_key: second });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body).toEqual({ ...apple, key_id: "KEY7654321" });
    expect(JSON.stringify(rotated.body)).not.toContain("PRIVATE KEY");
    const [row] = await ctx.server.deps.db.dataSource.query(
      "SELECT private_key_sealed FROM sso_connections WHERE id = $1",
      [apple.id],
    );
    expect(row.private_key_sealed).toMatch(/^v1\./);
    expect(row.private_key_sealed).not.toContain("PRIVATE KEY");
    const opened = await ctx.server.deps.db.repos.ssoConnections.getWithSecret(
      app.projectId,
      apple.id,
      ctx.server.deps.secrets,
    );
    expect(opened).toMatchObject({ keyId: "KEY7654321", privateKey: second, clientSecret: "" });

    const refused = await update(apple.id, {
      client_secret: "a-static-secret",
      team_id: "team",
      private_key: pem("rsa", { modulusLength: 2048 }),
    });
    expect(fields(refused)).toEqual(["client_secret", "team_id", "private_key"]);
    expect(fields(await update(apple.id, { private_key: pem("ec", { namedCurve: "P-384" }) }))).toEqual([
      "private_key",
    ]);
    // Apple's .p8 files are PKCS#8; the SEC1 form of the same kind of key is not one.
    expect(fields(await update(apple.id, { private_key: pem("ec", { namedCurve: "P-256" }, "sec1") }))).toEqual([
      "private_key",
    ]);
  });

  it("a new client secret is used from the next sign-in on", async () => {
    const connection = await world.connect(app, { clientSecret: "the-right-secret", trustEmails: true });
    world.idp.setAccount("rotating", { email: "rotating@example.com", email_verified: true });
    const before = await world.signIn(app, connection, "rotating");
    expect(before.fragment.get("access_token"), before.fragment.toString()).toBeTruthy();
    expect((await update(connection, { client_secret: "a-wrong-secret" })).status).toBe(200);
    const wrong = await world.signIn(app, connection, "rotating");
    expect(wrong.fragment.get("error")).toBe("sso_failed");
    expect((await update(connection, { client_secret: "the-right-secret" })).status).toBe(200);
    const after = await world.signIn(app, connection, "rotating");
    expect(after.fragment.get("access_token"), after.fragment.toString()).toBeTruthy();
  });

  it("is audited as sso_connection.updated with the names of the fields, never a secret", async () => {
    const connection = await create({ name: "Audited" });
    const key = appleKey();
    const apple = await create({
      provider: "apple",
      issuer: "",
      client_secret: undefined,
      team_id: "TEAM123456",
      key_id: "KEY1234567",
      private_key: key,
    });
    await update(connection.id, { name: "Audited (renamed)", client_secret: "an-audited-secret" });
    await update(apple.id, { private_key: appleKey() });
    const res = await http(
      // (ListAuditEvents' type filter does not list sso_connection.updated yet: all, then found.)
      `${ctx.server.url}/v1/audit-events?project_id=${app.projectId}&limit=100`,
      { headers: await app.admin() },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const event = res.body.data.find((e: { target_id: string }) => e.target_id === connection.id);
    expect(event).toMatchObject({
      type: "sso_connection.updated",
      project_id: app.projectId,
      actor_type: "member",
      details: { provider: "oidc", fields: ["name", "client_secret"] },
    });
    const appleEvent = res.body.data.find((e: { target_id: string }) => e.target_id === apple.id);
    expect(appleEvent.details).toEqual({ provider: "apple", fields: ["private_key"] });
    expect(JSON.stringify(res.body)).not.toContain("an-audited-secret");
    expect(JSON.stringify(res.body)).not.toContain("PRIVATE KEY");
  });

  it("another organization's connection is NOT_FOUND and stays as it was; so are unknown ids", async () => {
    const theirs = await create({ name: "Theirs" }, stranger);
    const res = await update(theirs.id, { name: "Taken", client_secret: "stolen" });
    expect(res.status).toBe(404);
    expect(res.body.reason).toBe("SSO_CONNECTION_NOT_FOUND");
    const intact = await update(theirs.id, {}, stranger);
    expect(intact.body).toEqual(theirs);
    for (const id of ["sso_00000000000000000000000000", "sso_nope", app.projectId]) {
      const unknown = await update(id, { name: "x" });
      expect({ status: unknown.status, reason: unknown.body.reason }).toEqual({
        status: 404,
        reason: "SSO_CONNECTION_NOT_FOUND",
      });
    }
    const anonymous = await http(`${ctx.server.url}/v1/sso-connections/${theirs.id}`, {
      method: "PATCH",
      body: { name: "x" },
    });
    expect(anonymous.body.reason).toBe("MISSING_MANAGEMENT_TOKEN");
  });
});

describe("the hosted sign-in page's buttons", () => {
  it("are in the project's order: by position, then oldest first, each with its provider", async () => {
    const fixture = await authFixture(ctx.server);
    // A second apart each, on the server's clock: "oldest first" is about created_at.
    const later = () => ctx.clock.advance(1000);
    const a = await create({ name: "Second (oldest at 5)", position: 5 }, fixture);
    later();
    const b = await create({ provider: "google", issuer: "", name: "First (position 1)", position: 1 }, fixture);
    later();
    const c = await create({ name: "Third (newest at 5)", position: 5 }, fixture);
    later();
    const d = await create({ provider: "microsoft", issuer: "", name: "Last" }, fixture);
    expect((await update(d.id, { position: 9 }, fixture)).status).toBe(200);
    const page = await fetch(`${ctx.server.url}/v1/auth/${fixture.loginId}/login`);
    const html = await page.text();
    expect(page.status, html.slice(0, 500)).toBe(200);
    const data = /<script type="application\/json" id="gatehouse-page">([\s\S]*?)<\/script>/.exec(html)?.[1];
    const config = JSON.parse(data!) as { sso_connections: Array<{ id: string; name: string; provider: string }> };
    expect(config.sso_connections).toEqual([
      { id: b.id, name: "First (position 1)", provider: "google" },
      { id: a.id, name: "Second (oldest at 5)", provider: "oidc" },
      { id: c.id, name: "Third (newest at 5)", provider: "oidc" },
      { id: d.id, name: "Last", provider: "microsoft" },
    ]);
  });
});
