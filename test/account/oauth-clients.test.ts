import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/crypto/ids.js";
import { hashToken } from "../../src/crypto/tokens.js";
import { DEFAULT_SCOPES, MAX_OAUTH_CLIENTS_PER_PROJECT } from "../../src/domain/oauth-clients.js";
import { accountFixture, expectError, type AccountFixture } from "../helpers/account.js";
import type { HttpAnswer } from "../helpers/clients.js";
import { injectHttp } from "../helpers/inject.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { createApiKey, createProject, RFC3339_UTC, sleep, violates, type Case } from "./project-helpers.js";

// The OAuth client management RPCs (API.md section 7, issue 28). Threats: a client secret
// readable after its creation or rotation (in a list, an update, the audit log, or at rest);
// an old secret still accepted after a rotation; a redirect URI that hands codes to whoever is
// on the path (plain http off loopback), to a page that leaks them (fragment), or to a web
// scheme (javascript:); a public client holding client_credentials; one organization reading,
// changing or deleting another's clients, or learning that they exist; tokens outliving the
// client they were issued to.

type Json = Record<string, any>;

describe("OAuth clients", () => {
  let server: TestServer;
  let f: AccountFixture;
  let project: Json;
  const sql = (text: string, params: unknown[] = []): Promise<any[]> => server.deps.db.dataSource.query(text, params);

  beforeAll(async () => {
    server = await sharedTestServer();
    f = await accountFixture(server);
    project = await createProject(f, { name: "Main" });
  });

  const post = (body: Json, headers = f.admin.headers) => f.rest("POST", "/v1/oauth-clients", headers, body);
  const body = (overrides: Json = {}): Json => ({
    project_id: project.id,
    name: "Shop web",
    type: "confidential",
    redirect_uris: ["https://shop.example.com/oauth/callback"],
    ...overrides,
  });

  /** Creates a client over REST; the clock of the shared server is the wall's, so 2 ms apart keep "newest first" observable. */
  async function create(overrides: Json = {}, headers = f.admin.headers): Promise<Json> {
    const res = await post(body(overrides), headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await sleep(2);
    return res.body;
  }

  async function auditTypes(projectId: string): Promise<Json[]> {
    // No `type` filter: the list of types is the proto's, read from the generated descriptors.
    const res = await f.rest("GET", `/v1/audit-events?project_id=${projectId}&limit=100`, f.admin.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.filter((e: Json) => e.type.startsWith("oauth_client."));
  }

  describe("CreateOAuthClient", () => {
    it("makes a confidential client: the gcs_ secret in this answer only, its SHA-256 alone at rest", async () => {
      const created = await create({ logo_uri: "https://cdn.example.com/shop.png" });
      expect(created).toEqual({
        client: {
          client_id: expect.stringMatching(/^oac_[0-9a-z]{26}$/),
          project_id: project.id,
          name: "Shop web",
          type: "confidential",
          redirect_uris: ["https://shop.example.com/oauth/callback"],
          grant_types: ["authorization_code", "refresh_token"],
          scopes: [...DEFAULT_SCOPES],
          first_party: false,
          logo_uri: "https://cdn.example.com/shop.png",
          post_logout_redirect_uris: [],
          secret_hint: created.client_secret.slice(0, 8),
          // PKCE is required of every client made now: the legacy exception is asked for by name.
          allow_missing_pkce: false,
          created_at: expect.stringMatching(RFC3339_UTC),
          updated_at: expect.stringMatching(RFC3339_UTC),
        },
        client_id: created.client.client_id,
        client_secret: expect.stringMatching(/^gcs_[A-Za-z0-9_-]{43}$/),
      });
      const [row] = await sql(`SELECT * FROM oauth_clients WHERE id = $1`, [created.client_id]);
      expect(row.secret_hash).toBe(hashToken(created.client_secret));
      expect(JSON.stringify(row)).not.toContain(created.client_secret.slice(8));
      // The engine's lookup has the hash, never the secret.
      const stored = await server.deps.db.repos.oauthClients.findForProvider(project.id, created.client_id);
      expect(stored).toMatchObject({ id: created.client_id, secretHash: hashToken(created.client_secret) });
    });

    it("makes a public client with no secret; a native app's loopback and private-use redirect URIs are accepted", async () => {
      const created = await create({
        name: "  Shop for iOS  ",
        type: "public",
        redirect_uris: [
          "com.example.shop:/oauth/callback",
          "http://127.0.0.1:53124/callback",
          "http://[::1]/callback",
          "http://localhost:3000/callback",
        ],
        post_logout_redirect_uris: ["com.example.shop:/signed-out"],
        grant_types: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
        scopes: ["openid", "offline_access"],
        first_party: true,
      });
      expect(created.client_secret).toBe("");
      expect(created.client).toMatchObject({
        name: "Shop for iOS",
        type: "public",
        secret_hint: "",
        first_party: true,
        scopes: ["openid", "offline_access"],
        post_logout_redirect_uris: ["com.example.shop:/signed-out"],
      });
      const [row] = await sql(`SELECT secret_hash, secret_hint FROM oauth_clients WHERE id = $1`, [created.client_id]);
      expect(row).toEqual({ secret_hash: null, secret_hint: null });
    });

    it("a confidential machine-to-machine client needs no redirect URI", async () => {
      const created = await create({ redirect_uris: [], grant_types: ["client_credentials"] });
      expect(created.client).toMatchObject({ grant_types: ["client_credentials"], redirect_uris: [] });
    });

    const cases: Array<{ name: string; body: Json; fields: string[] }> = [
      { name: "a blank name", body: { name: "   " }, fields: ["name"] },
      { name: "a type that is neither", body: { type: "hybrid" }, fields: ["type"] },
      {
        name: "a fragment",
        body: { redirect_uris: ["https://shop.example.com/cb#top"] },
        fields: ["redirect_uris[0]"],
      },
      {
        name: "an empty fragment",
        body: { redirect_uris: ["https://shop.example.com/cb#"] },
        fields: ["redirect_uris[0]"],
      },
      {
        name: "plain http off loopback",
        body: { redirect_uris: ["https://shop.example.com/cb", "http://shop.example.com/cb"] },
        fields: ["redirect_uris[1]"],
      },
      {
        name: "credentials in the URI",
        body: { redirect_uris: ["https://user:pw@shop.example.com/cb"] },
        fields: ["redirect_uris[0]"],
      },
      { name: "a relative URI", body: { redirect_uris: ["/oauth/callback"] }, fields: ["redirect_uris[0]"] },
      { name: "a scheme without a dot", body: { redirect_uris: ["shop:/callback"] }, fields: ["redirect_uris[0]"] },
      { name: "javascript:", body: { redirect_uris: ["javascript:alert(1)"] }, fields: ["redirect_uris[0]"] },
      {
        name: "a post-logout URI on plain http",
        body: { post_logout_redirect_uris: ["http://shop.example.com/bye"] },
        fields: ["post_logout_redirect_uris[0]"],
      },
      {
        name: "an unknown grant type",
        body: { grant_types: ["authorization_code", "password"] },
        fields: ["grant_types[1]"],
      },
      { name: "an unknown scope", body: { scopes: ["openid", "admin"] }, fields: ["scopes[1]"] },
      {
        name: "client_credentials for a public client",
        body: { type: "public", grant_types: ["authorization_code", "client_credentials"] },
        fields: ["grant_types"],
      },
      {
        name: "the exception to PKCE for a public client",
        body: { type: "public", allow_missing_pkce: true },
        fields: ["allow_missing_pkce"],
      },
      {
        name: "refresh_token without a grant that issues one",
        body: { grant_types: ["client_credentials", "refresh_token"] },
        fields: ["grant_types"],
      },
      { name: "the code flow without a redirect URI", body: { redirect_uris: [] }, fields: ["redirect_uris"] },
      { name: "a logo on plain http", body: { logo_uri: "http://cdn.example.com/logo.png" }, fields: ["logo_uri"] },
      {
        name: "several at once, each named",
        body: { name: " ", redirect_uris: ["http://shop.example.com/cb"], scopes: ["root"] },
        fields: ["name", "redirect_uris[0]", "scopes[0]"],
      },
    ];
    for (const c of cases)
      it(`refuses ${c.name}, naming the field`, async () => {
        violates(...c.fields)(await post(body(c.body)));
      });

    it("refuses an unknown project and another organization's alike, and writes nothing", async () => {
      const before = await sql(`SELECT count(*)::int AS n FROM oauth_clients WHERE organization_id = $1`, [
        f.organization.id,
      ]);
      expectError(await post(body({ project_id: newId("proj") })), 404, "PROJECT_NOT_FOUND");
      expectError(await post(body({ project_id: "proj_nonsense" })), 404, "PROJECT_NOT_FOUND");
      expectError(await post(body(), f.outsider.headers), 404, "PROJECT_NOT_FOUND");
      const after = await sql(`SELECT count(*)::int AS n FROM oauth_clients WHERE organization_id = $1`, [
        f.organization.id,
      ]);
      expect(after).toEqual(before);
      expectError(await post(body(), {}), 401, "MISSING_MANAGEMENT_TOKEN");
    });

    it(`allows at most ${MAX_OAUTH_CLIENTS_PER_PROJECT} clients in a project`, async () => {
      const full = await createProject(f, { name: "Full" });
      const now = new Date();
      for (let i = 1; i < MAX_OAUTH_CLIENTS_PER_PROJECT; i++)
        await server.deps.db.repos.oauthClients.create({
          id: newId("oac"),
          organizationId: f.organization.id,
          projectId: full.id,
          name: `App ${i}`,
          type: "public",
          secretHash: null,
          secretHint: null,
          redirectUris: ["https://shop.example.com/cb"],
          postLogoutRedirectUris: [],
          grantTypes: ["authorization_code"],
          scopes: ["openid"],
          firstParty: false,
          logoUri: "",
          allowMissingPkce: false,
          createdAt: now,
          updatedAt: now,
        });
      await create({ project_id: full.id });
      violates("project_id")(await post(body({ project_id: full.id })));
    });
  });

  describe("ListOAuthClients", () => {
    let listedProject: Json;
    let clients: Json[];

    beforeAll(async () => {
      listedProject = await createProject(f, { name: "Listed" });
      clients = [];
      for (const name of ["First", "Second", "Third"])
        clients.push(await create({ project_id: listedProject.id, name }));
    });

    it("lists newest first, never a secret", async () => {
      const res = await f.rest("GET", `/v1/projects/${listedProject.id}/oauth-clients`, f.admin.headers);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.map((c: Json) => c.client_id)).toEqual(clients.map((c) => c.client_id).reverse());
      expect(res.body).toMatchObject({ has_more: false, next_cursor: "" });
      expect(res.body.data[2]).toEqual(clients[0].client);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain("client_secret");
      for (const c of clients) expect(text).not.toContain(c.client_secret.slice(8));
    });

    it("pages by cursor; a cursor of another project's list is INVALID_CURSOR", async () => {
      const path = `/v1/projects/${listedProject.id}/oauth-clients`;
      const page1 = await f.rest("GET", `${path}?limit=2`, f.admin.headers);
      expect(page1.body.data.map((c: Json) => c.name)).toEqual(["Third", "Second"]);
      expect(page1.body).toMatchObject({ has_more: true, next_cursor: expect.stringMatching(/^cur_/) });
      const page2 = await f.rest("GET", `${path}?limit=2&cursor=${page1.body.next_cursor}`, f.admin.headers);
      expect(page2.body).toMatchObject({ data: [{ name: "First" }], has_more: false, next_cursor: "" });
      const elsewhere = await f.rest(
        "GET",
        `/v1/projects/${project.id}/oauth-clients?cursor=${page1.body.next_cursor}`,
        f.admin.headers,
      );
      expectError(elsewhere, 400, "INVALID_CURSOR");
      violates("limit")(await f.rest("GET", `${path}?limit=101`, f.admin.headers));
    });

    it("another organization's project, or none, is PROJECT_NOT_FOUND", async () => {
      const path = `/v1/projects/${listedProject.id}/oauth-clients`;
      expectError(await f.rest("GET", path, f.outsider.headers), 404, "PROJECT_NOT_FOUND");
      expectError(
        await f.rest("GET", `/v1/projects/${newId("proj")}/oauth-clients`, f.admin.headers),
        404,
        "PROJECT_NOT_FOUND",
      );
    });
  });

  describe("UpdateOAuthClient", () => {
    const patch = (id: string, changes: Json, headers = f.admin.headers) =>
      f.rest("PATCH", `/v1/oauth-clients/${id}`, headers, changes);

    it("changes only the fields present; an empty list leaves its field as it was", async () => {
      const created = await create({
        logo_uri: "https://cdn.example.com/a.png",
        post_logout_redirect_uris: ["https://shop.example.com/bye"],
        first_party: true,
      });
      const id = created.client_id;
      const renamed = await patch(id, { name: " Shop web 2 ", redirect_uris: [], scopes: [] });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      const { name: _name, updated_at: _updated, ...unchanged } = created.client;
      expect(renamed.body.client).toMatchObject({ ...unchanged, name: "Shop web 2" });
      expect(Date.parse(renamed.body.client.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.client.updated_at));

      const changed = await patch(id, {
        redirect_uris: ["https://shop.example.com/new-callback", "http://127.0.0.1/cb"],
        grant_types: ["authorization_code", "client_credentials"],
        scopes: ["openid"],
        first_party: false,
        logo_uri: "",
        post_logout_redirect_uris: ["https://shop.example.com/goodbye"],
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body.client).toMatchObject({
        client_id: id,
        name: "Shop web 2",
        type: "confidential",
        redirect_uris: ["https://shop.example.com/new-callback", "http://127.0.0.1/cb"],
        grant_types: ["authorization_code", "client_credentials"],
        scopes: ["openid"],
        first_party: false,
        logo_uri: "",
        post_logout_redirect_uris: ["https://shop.example.com/goodbye"],
        secret_hint: created.client.secret_hint,
      });
      expect(JSON.stringify(changed.body)).not.toContain(created.client_secret.slice(8));
      // first_party absent stays false; present false is a change like any other.
      expect((await patch(id, { name: "Shop web 3" })).body.client.first_party).toBe(false);
    });

    it("holds the rules between fields on the client as it would end up", async () => {
      const app = await create({ type: "public" });
      violates("grant_types")(await patch(app.client_id, { grant_types: ["client_credentials"] }));
      violates("grant_types")(await patch(app.client_id, { grant_types: ["refresh_token"] }));
      violates("allow_missing_pkce")(await patch(app.client_id, { allow_missing_pkce: true }));
      const m2m = await create({ redirect_uris: [], grant_types: ["client_credentials"] });
      violates("redirect_uris")(await patch(m2m.client_id, { grant_types: ["authorization_code"] }));
      violates(
        "name",
        "redirect_uris[0]",
        "logo_uri",
      )(await patch(m2m.client_id, { redirect_uris: ["http://evil.example.com/cb"], logo_uri: "ftp://x", name: " " }));
      violates("scopes[0]")(await patch(m2m.client_id, { scopes: ["everything"] }));
      const [row] = await sql(`SELECT grant_types, redirect_uris FROM oauth_clients WHERE id = $1`, [m2m.client_id]);
      expect(row).toEqual({ grant_types: ["client_credentials"], redirect_uris: [] });
    });

    it("an unknown client, a malformed id and another organization's are OAUTH_CLIENT_NOT_FOUND", async () => {
      const created = await create();
      expectError(await patch(newId("oac"), { name: "x" }), 404, "OAUTH_CLIENT_NOT_FOUND");
      expectError(await patch("oac_bogus", { name: "x" }), 404, "OAUTH_CLIENT_NOT_FOUND");
      expectError(
        await patch(created.client_id, { name: "Theirs" }, f.outsider.headers),
        404,
        "OAUTH_CLIENT_NOT_FOUND",
      );
      const [row] = await sql(`SELECT name FROM oauth_clients WHERE id = $1`, [created.client_id]);
      expect(row.name).toBe("Shop web");
    });
  });

  describe("RotateOAuthClientSecret", () => {
    const rotate = (id: string, headers = f.admin.headers) =>
      f.rest("POST", `/v1/oauth-clients/${id}/rotate-secret`, headers, {});

    it("answers a new secret once; the old hash is gone at once", async () => {
      const created = await create();
      const res = await rotate(created.client_id);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({
        client_id: created.client_id,
        client_secret: expect.stringMatching(/^gcs_[A-Za-z0-9_-]{43}$/),
        client: { ...created.client, secret_hint: res.body.client_secret.slice(0, 8), updated_at: expect.any(String) },
      });
      expect(res.body.client_secret).not.toBe(created.client_secret);
      const hashes = await sql(`SELECT id FROM oauth_clients WHERE secret_hash = $1`, [
        hashToken(created.client_secret),
      ]);
      expect(hashes).toEqual([]);
      const stored = await server.deps.db.repos.oauthClients.findForProvider(project.id, created.client_id);
      expect(stored?.secretHash).toBe(hashToken(res.body.client_secret));
    });

    it("a public client has no secret: VALIDATION_FAILED; another organization's client is not found", async () => {
      const app = await create({ type: "public" });
      violates("client_id")(await rotate(app.client_id));
      const created = await create();
      expectError(await rotate(created.client_id, f.outsider.headers), 404, "OAUTH_CLIENT_NOT_FOUND");
      expectError(await rotate(newId("oac")), 404, "OAUTH_CLIENT_NOT_FOUND");
      const [row] = await sql(`SELECT secret_hash FROM oauth_clients WHERE id = $1`, [created.client_id]);
      expect(row.secret_hash).toBe(hashToken(created.client_secret));
    });
  });

  describe("DeleteOAuthClient", () => {
    const del = (id: string, headers = f.admin.headers) => f.rest("DELETE", `/v1/oauth-clients/${id}`, headers);

    it("deletes the client with its consents and everything issued to it, nothing of another client", async () => {
      const cascade = await createProject(f, { name: "Cascade" });
      const key = await createApiKey(f, cascade.id);
      const signup = await injectHttp(server.handle, "/v1/auth/signup", {
        headers: { "x-service-key": key.key },
        body: { email: `ada-${Date.now()}@example.com`, password: "a sturdy passphrase 1" },
      });
      expect(signup.status, JSON.stringify(signup.body)).toBe(200);
      const userId = signup.body.user.id as string;
      const doomed = await create({ project_id: cascade.id });
      const kept = await create({ project_id: cascade.id, name: "Kept" });
      const now = new Date();
      for (const client of [doomed, kept]) {
        await server.deps.db.repos.oauthConsents.grant(cascade.id, userId, client.client_id, ["openid"], now);
        for (const model of ["AuthorizationCode", "AccessToken", "RefreshToken", "Grant"])
          await sql(
            `INSERT INTO oidc_payloads (model, id, project_id, payload, client_id, account_id)
             VALUES ($1, $2, $3, '{}'::jsonb, $4, $5)`,
            [model, `${model}-${client.client_id}`, cascade.id, client.client_id, userId],
          );
      }
      // Issued with no user (client credentials): it goes too.
      await sql(
        `INSERT INTO oidc_payloads (model, id, project_id, payload, client_id) VALUES ('ClientCredentials', $1, $2, '{}'::jsonb, $3)`,
        [`cc-${doomed.client_id}`, cascade.id, doomed.client_id],
      );

      expectError(await del(doomed.client_id, f.outsider.headers), 404, "OAUTH_CLIENT_NOT_FOUND");
      const res = await del(doomed.client_id);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ deleted: true, id: doomed.client_id });

      const left = async (clientId: string) => ({
        clients: (await sql(`SELECT id FROM oauth_clients WHERE id = $1`, [clientId])).length,
        consents: (await sql(`SELECT 1 FROM oauth_consents WHERE client_id = $1`, [clientId])).length,
        payloads: (await sql(`SELECT 1 FROM oidc_payloads WHERE client_id = $1`, [clientId])).length,
      });
      expect(await left(doomed.client_id)).toEqual({ clients: 0, consents: 0, payloads: 0 });
      expect(await left(kept.client_id)).toEqual({ clients: 1, consents: 1, payloads: 4 });
      expectError(await del(doomed.client_id), 404, "OAUTH_CLIENT_NOT_FOUND");
      expectError(await del("not-an-id"), 404, "OAUTH_CLIENT_NOT_FOUND");
    });
  });

  it("a developer may manage clients, as the proto's access option says", async () => {
    const dev = f.developer.headers;
    const created = await create({ name: "Dev app" }, dev);
    const listed = await f.rest("GET", `/v1/projects/${project.id}/oauth-clients?limit=100`, dev);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((c: Json) => c.client_id)).toContain(created.client_id);
    const checks: Case[] = [
      {
        name: "update",
        run: () => f.rest("PATCH", `/v1/oauth-clients/${created.client_id}`, dev, { name: "Dev app 2" }),
        check: (res) => expect(res.body.client.name).toBe("Dev app 2"),
      },
      {
        name: "rotate",
        run: () => f.rest("POST", `/v1/oauth-clients/${created.client_id}/rotate-secret`, dev, {}),
        check: (res) => expect(res.body.client_secret).toMatch(/^gcs_/),
      },
      {
        name: "delete",
        run: () => f.rest("DELETE", `/v1/oauth-clients/${created.client_id}`, dev),
        check: (res) => expect(res.body).toEqual({ deleted: true, id: created.client_id }),
      },
    ];
    for (const c of checks) {
      const res: HttpAnswer = await c.run();
      expect(res.status, `${c.name}: ${JSON.stringify(res.body)}`).toBe(200);
      await c.check(res);
    }
  });

  it("records each change in the audit log, never a secret", async () => {
    const audited = await createProject(f, { name: "Audited" });
    const created = await create({ project_id: audited.id, name: "Audited app" });
    await f.rest("PATCH", `/v1/oauth-clients/${created.client_id}`, f.admin.headers, {
      name: "Renamed",
      scopes: ["openid"],
    });
    await f.rest("PATCH", `/v1/oauth-clients/${created.client_id}`, f.admin.headers, { allow_missing_pkce: true });
    const rotated = await f.rest("POST", `/v1/oauth-clients/${created.client_id}/rotate-secret`, f.admin.headers, {});
    await f.rest("DELETE", `/v1/oauth-clients/${created.client_id}`, f.admin.headers);
    const events = await auditTypes(audited.id);
    expect(events.map((e) => e.type)).toEqual([
      "oauth_client.deleted",
      "oauth_client.secret_rotated",
      "oauth_client.updated",
      "oauth_client.updated",
      "oauth_client.created",
    ]);
    for (const e of events)
      expect(e).toMatchObject({ target_id: created.client_id, actor_type: "member", actor_id: f.admin.member.id });
    expect(events[4].details).toEqual({
      name: "Audited app",
      client_type: "confidential",
      grant_types: ["authorization_code", "refresh_token"],
      first_party: false,
      allow_missing_pkce: false,
    });
    expect(events[3].details).toEqual({ changed: ["name", "scopes"] });
    // The exception weakens the client: its value is recorded with the change.
    expect(events[2].details).toEqual({ changed: ["allow_missing_pkce"], allow_missing_pkce: true });
    const text = JSON.stringify(events);
    for (const secret of [created.client_secret, rotated.body.client_secret]) expect(text).not.toContain(secret);
  });
});
