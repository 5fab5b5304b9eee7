import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/crypto/ids.js";
import { expectError } from "../helpers/account.js";
import { injectHttp } from "../helpers/inject.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";

// ListAuthorizedApps and RevokeAuthorizedApp (API.md section 7, issue 28). Threats: a user
// reading or withdrawing another user's consents; a revoked application keeping the codes and
// tokens it was issued for that user (or a revocation reaching another user's or another
// application's); a web page's publishable key listing a user's applications without the
// user's token.

type Json = Record<string, any>;

describe("authorized applications", () => {
  let server: TestServer;
  let app: AuthFixture;
  let admin: Record<string, string>;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  let shop: Json;
  let blog: Json;
  const sql = (text: string, params: unknown[] = []): Promise<any[]> => server.deps.db.dataSource.query(text, params);
  const consents = () => server.deps.db.repos.oauthConsents;

  async function newClient(overrides: Json): Promise<Json> {
    const res = await injectHttp(server.handle, "/v1/oauth-clients", {
      headers: admin,
      body: {
        project_id: app.projectId,
        type: "confidential",
        redirect_uris: ["https://apps.example.com/cb"],
        ...overrides,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.client;
  }

  async function newUser(): Promise<{ id: string; token: string }> {
    const { body } = await app.signup();
    return { id: body.user.id, token: body.access_token };
  }

  /** What the engine stored for (user, client), one row per model. */
  async function issue(userId: string, clientId: string): Promise<void> {
    for (const model of ["AuthorizationCode", "AccessToken", "RefreshToken", "Grant"])
      await sql(
        `INSERT INTO oidc_payloads (model, id, project_id, payload, client_id, account_id, grant_id)
         VALUES ($1, $2, $3, '{}'::jsonb, $4, $5, $6)`,
        [model, newId("oidc"), app.projectId, clientId, userId, `grant-${userId}-${clientId}`],
      );
  }

  const issued = async (userId: string, clientId: string) =>
    (
      await sql(`SELECT model FROM oidc_payloads WHERE account_id = $1 AND client_id = $2 ORDER BY model`, [
        userId,
        clientId,
      ])
    ).map((r) => r.model as string);

  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
    admin = await app.admin();
    shop = await newClient({ name: "Shop", logo_uri: "https://cdn.example.com/shop.png" });
    blog = await newClient({ name: "Blog", first_party: true });
    alice = await newUser();
    bob = await newUser();
  });

  it("Grant remembers the scopes, widening only: created_at stays, updated_at moves when a scope is added", async () => {
    const user = await newUser();
    const t0 = new Date("2030-01-01T00:00:00Z");
    const t1 = new Date("2030-01-02T00:00:00Z");
    const t2 = new Date("2030-01-03T00:00:00Z");
    const first = await consents().grant(app.projectId, user.id, shop.client_id, ["openid", "email", "openid"], t0);
    expect(first).toEqual({
      userId: user.id,
      clientId: shop.client_id,
      scopes: ["openid", "email"],
      createdAt: t0,
      updatedAt: t0,
    });
    const same = await consents().grant(app.projectId, user.id, shop.client_id, ["email"], t1);
    expect(same).toEqual(first);
    const wider = await consents().grant(app.projectId, user.id, shop.client_id, ["profile", "openid"], t2);
    expect(wider).toEqual({ ...first, scopes: ["openid", "email", "profile"], updatedAt: t2 });
    expect(await consents().get(app.projectId, user.id, shop.client_id)).toEqual(wider);
    expect(await consents().get(app.projectId, user.id, blog.client_id)).toBeUndefined();
  });

  describe("ListAuthorizedApps", () => {
    let listed: { id: string; token: string };

    beforeAll(async () => {
      listed = await newUser();
      await consents().grant(
        app.projectId,
        listed.id,
        shop.client_id,
        ["openid", "email"],
        new Date("2030-02-01T00:00:00Z"),
      );
      await consents().grant(app.projectId, listed.id, blog.client_id, ["openid"], new Date("2030-02-02T00:00:00Z"));
    });

    const expected = () => [
      {
        client_id: blog.client_id,
        name: "Blog",
        logo_uri: "",
        scopes: ["openid"],
        first_party: true,
        created_at: "2030-02-02T00:00:00Z",
        updated_at: "2030-02-02T00:00:00Z",
      },
      {
        client_id: shop.client_id,
        name: "Shop",
        logo_uri: "https://cdn.example.com/shop.png",
        scopes: ["openid", "email"],
        first_party: false,
        created_at: "2030-02-01T00:00:00Z",
        updated_at: "2030-02-01T00:00:00Z",
      },
    ];

    it("lists the user's own applications with its access token, most recently authorized first", async () => {
      const res = await app.call("GET", "/v1/auth/authorized-apps", undefined, listed.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ data: expected() });
      const named = await app.call("GET", `/v1/auth/authorized-apps?user_id=${listed.id}`, undefined, listed.token);
      expect(named.body).toEqual({ data: expected() });
      const none = await app.call("GET", "/v1/auth/authorized-apps", undefined, bob.token);
      expect(none.body).toEqual({ data: [] });
    });

    it("lists a named user's as admin; admin without user_id, an unknown user and another user's are refused", async () => {
      const res = await app.call("GET", `/v1/auth/authorized-apps?user_id=${listed.id}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ data: expected() });
      const missing = await app.call("GET", "/v1/auth/authorized-apps");
      expectError(missing, 400, "VALIDATION_FAILED");
      expect(missing.body.violations.map((v: Json) => v.field)).toEqual(["user_id"]);
      expectError(await app.call("GET", `/v1/auth/authorized-apps?user_id=${newId("usr")}`), 404, "USER_NOT_FOUND");
      expectError(await app.call("GET", "/v1/auth/authorized-apps?user_id=usr_nonsense"), 404, "USER_NOT_FOUND");
      expectError(
        await app.call("GET", `/v1/auth/authorized-apps?user_id=${listed.id}`, undefined, bob.token),
        403,
        "ADMIN_REQUIRED",
      );
    });

    it("another project's key reaches none of them", async () => {
      const other = await authFixture(server);
      expectError(await other.call("GET", `/v1/auth/authorized-apps?user_id=${listed.id}`), 404, "USER_NOT_FOUND");
      expectError(
        await other.call("DELETE", `/v1/auth/authorized-apps/${shop.client_id}?user_id=${listed.id}`),
        404,
        "AUTHORIZED_APP_NOT_FOUND",
      );
      expect((await app.call("GET", "/v1/auth/authorized-apps", undefined, listed.token)).body).toEqual({
        data: expected(),
      });
    });
  });

  describe("RevokeAuthorizedApp", () => {
    it("withdraws the consent and ends what was issued to that application for that user only", async () => {
      const carol = await newUser();
      for (const user of [alice, carol]) {
        await consents().grant(app.projectId, user.id, shop.client_id, ["openid"], new Date());
        await consents().grant(app.projectId, user.id, blog.client_id, ["openid"], new Date());
        await issue(user.id, shop.client_id);
        await issue(user.id, blog.client_id);
      }
      const all = ["AccessToken", "AuthorizationCode", "Grant", "RefreshToken"];

      const res = await app.call("DELETE", `/v1/auth/authorized-apps/${shop.client_id}`, undefined, alice.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ revoked: true, client_id: shop.client_id });

      expect(await consents().get(app.projectId, alice.id, shop.client_id)).toBeUndefined();
      expect(await issued(alice.id, shop.client_id)).toEqual([]);
      // Alice's other application, and Carol's consent to the same one, stay.
      expect(await issued(alice.id, blog.client_id)).toEqual(all);
      expect(await issued(carol.id, shop.client_id)).toEqual(all);
      expect(await consents().get(app.projectId, carol.id, shop.client_id)).toBeDefined();
      const left = await app.call("GET", "/v1/auth/authorized-apps", undefined, alice.token);
      expect(left.body.data.map((a: Json) => a.client_id)).toEqual([blog.client_id]);

      // Nothing left to revoke.
      const again = await app.call("DELETE", `/v1/auth/authorized-apps/${shop.client_id}`, undefined, alice.token);
      expectError(again, 404, "AUTHORIZED_APP_NOT_FOUND");

      // The audit log has it, about Alice, acted by Alice.
      const events = await injectHttp(
        server.handle,
        `/v1/audit-events?project_id=${app.projectId}&user_id=${alice.id}&limit=100`,
        { headers: admin },
      );
      const revoked = events.body.data.filter((e: Json) => e.type === "user.authorized_app.revoked");
      expect(revoked).toEqual([
        expect.objectContaining({
          user_id: alice.id,
          target_id: shop.client_id,
          actor_type: "user",
          actor_id: alice.id,
        }),
      ]);
    });

    it("an application the user never authorized, another user's, and an unknown one are AUTHORIZED_APP_NOT_FOUND", async () => {
      const dave = await newUser();
      await consents().grant(app.projectId, dave.id, shop.client_id, ["openid"], new Date());
      await issue(dave.id, shop.client_id);
      // Bob has no consent to Shop: Dave's is not his to revoke.
      expectError(
        await app.call("DELETE", `/v1/auth/authorized-apps/${shop.client_id}`, undefined, bob.token),
        404,
        "AUTHORIZED_APP_NOT_FOUND",
      );
      expectError(
        await app.call("DELETE", `/v1/auth/authorized-apps/${shop.client_id}?user_id=${dave.id}`, undefined, bob.token),
        403,
        "ADMIN_REQUIRED",
      );
      for (const clientId of [newId("oac"), "not-a-client"])
        expectError(
          await app.call("DELETE", `/v1/auth/authorized-apps/${clientId}`, undefined, dave.token),
          404,
          "AUTHORIZED_APP_NOT_FOUND",
        );
      expect(await consents().get(app.projectId, dave.id, shop.client_id)).toBeDefined();
      expect(await issued(dave.id, shop.client_id)).toHaveLength(4);
    });

    it("an admin revokes a named user's; without user_id it is VALIDATION_FAILED", async () => {
      const erin = await newUser();
      await consents().grant(app.projectId, erin.id, blog.client_id, ["openid"], new Date());
      await issue(erin.id, blog.client_id);
      const missing = await app.call("DELETE", `/v1/auth/authorized-apps/${blog.client_id}`);
      expectError(missing, 400, "VALIDATION_FAILED");
      expect(missing.body.violations.map((v: Json) => v.field)).toEqual(["user_id"]);
      const res = await app.call("DELETE", `/v1/auth/authorized-apps/${blog.client_id}?user_id=${erin.id}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ revoked: true, client_id: blog.client_id });
      expect(await issued(erin.id, blog.client_id)).toEqual([]);
      expectError(
        await app.call("DELETE", `/v1/auth/authorized-apps/${blog.client_id}?user_id=${newId("usr")}`),
        404,
        "AUTHORIZED_APP_NOT_FOUND",
      );
    });
  });

  it("a publishable key reaches them with the user's token only", async () => {
    const created = await injectHttp(server.handle, "/v1/api-keys", {
      headers: admin,
      body: { project_id: app.projectId, label: "web", kind: "publishable" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const page = (method: string, path: string, bearer?: string) =>
      injectHttp(server.handle, path, {
        method,
        headers: { "x-service-key": created.body.key, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      });
    const frank = await newUser();
    await consents().grant(app.projectId, frank.id, shop.client_id, ["openid"], new Date());

    const listed = await page("GET", "/v1/auth/authorized-apps", frank.token);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.map((a: Json) => a.client_id)).toEqual([shop.client_id]);
    // Without it, the page's key is anybody's: it names no user.
    expectError(await page("GET", `/v1/auth/authorized-apps?user_id=${frank.id}`), 401, "MISSING_ACCESS_TOKEN");
    expectError(
      await page("DELETE", `/v1/auth/authorized-apps/${shop.client_id}?user_id=${frank.id}`),
      401,
      "MISSING_ACCESS_TOKEN",
    );
    expect(await consents().get(app.projectId, frank.id, shop.client_id)).toBeDefined();

    const revoked = await page("DELETE", `/v1/auth/authorized-apps/${shop.client_id}`, frank.token);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body).toEqual({ revoked: true, client_id: shop.client_id });
  });
});
