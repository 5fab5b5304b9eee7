import { afterEach, expect, it } from "vitest";
import { OauthClientPkce1734300004600 } from "../../src/store/migrations/1734300004600-oauth-client-pkce.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { migrationsThrough, withMigrationSource } from "../helpers/migration-source.js";
import { longTest } from "../helpers/patience.js";

// PKCE became required of every OAuth client. An upgrade must not break, unannounced, a
// confidential relying party that signed in without PKCE the day before: the clients that
// existed and may use the code flow keep working through the exception, shown on each client.
// Public clients (which always needed PKCE), clients without the code flow, and every client
// made after the upgrade start without it. The migration is run, undone and run again.

const PREVIOUS = "SsoHandoverMetadata1734300000400";
const created: TestDatabase[] = [];
afterEach(async () => {
  for (const t of created.splice(0)) await t.drop();
});

it(
  "gives the exception to the confidential code-flow clients that existed, and to no other",
  { timeout: longTest(3) },
  async () => {
    const t = await createTestDatabase({ empty: true });
    created.push(t);
    await withMigrationSource(t, [...migrationsThrough(PREVIOUS), OauthClientPkce1734300004600], async (dataSource) => {
      const sql = (text: string, params: unknown[] = []) => dataSource.query(text, params);
      await dataSource.runMigrations({ transaction: "each" });
      await dataSource.undoLastMigration({ transaction: "each" });
      await sql(`INSERT INTO organizations (id, name) VALUES ('org_a', 'A')`);
      await sql(`INSERT INTO issued_login_ids (login_id, project_id) VALUES ('lp_1', 'proj_1')`);
      await sql(
        `INSERT INTO projects (id, organization_id, login_id, name, redirect_url) VALUES ('proj_1', 'org_a', 'lp_1', 'P', 'https://app.example.com/cb')`,
      );
      const client = (id: string, type: string, grants: string[]) =>
        sql(
          `INSERT INTO oauth_clients (id, organization_id, project_id, name, type, secret_hash, redirect_uris, grant_types, scopes, created_at, updated_at)
           VALUES ($1, 'org_a', 'proj_1', $1, $2, $3, '{https://rp.example.com/cb}', $4, '{openid}', now(), now())`,
          [id, type, type === "confidential" ? "a".repeat(64) : null, grants],
        );
      await client("oac_wiki", "confidential", ["authorization_code", "refresh_token"]);
      await client("oac_job", "confidential", ["client_credentials"]);
      await client("oac_spa", "public", ["authorization_code"]);

      await dataSource.runMigrations({ transaction: "each" });
      const rows = await sql(`SELECT id, allow_missing_pkce FROM oauth_clients ORDER BY id`);
      expect(rows).toEqual([
        { id: "oac_job", allow_missing_pkce: false },
        { id: "oac_spa", allow_missing_pkce: false },
        { id: "oac_wiki", allow_missing_pkce: true },
      ]);
      // A client made after the upgrade starts without it; a public client can never have it.
      await client("oac_new", "confidential", ["authorization_code"]);
      expect(await sql(`SELECT allow_missing_pkce FROM oauth_clients WHERE id = 'oac_new'`)).toEqual([
        { allow_missing_pkce: false },
      ]);
      await expect(sql(`UPDATE oauth_clients SET allow_missing_pkce = true WHERE id = 'oac_spa'`)).rejects.toThrow(
        /oauth_clients_pkce_check/,
      );
    });
  },
);
