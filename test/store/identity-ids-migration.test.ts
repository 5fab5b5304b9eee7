import { afterEach, expect, it } from "vitest";
import { isIdOf } from "../../src/domain/ids.js";
import { IdentityIds1734300000100 } from "../../src/store/migrations/1734300000100-identity-ids.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { migrationsThrough, withMigrationSource } from "../helpers/migration-source.js";
import { longTest } from "../helpers/patience.js";

// Identities linked before UnlinkIdentity existed must get an id a user can name: one each,
// all different, of the shape the flow accepts (isIdOf("idn", …)), and unique from then on.
// The migration is run, undone and run again, so its down is exercised as well.

const PREVIOUS = "SsoOidcPresets1734200000001";
const created: TestDatabase[] = [];
afterEach(async () => {
  for (const t of created.splice(0)) await t.drop();
});

it(
  "gives every identity linked before it a distinct idn_ id, and keeps ids unique",
  { timeout: longTest(3) },
  async () => {
    const t = await createTestDatabase({ empty: true });
    created.push(t);
    // Only this migration after PREVIOUS: the others of its round are not what this test is about.
    await withMigrationSource(t, [...migrationsThrough(PREVIOUS), IdentityIds1734300000100], async (dataSource) => {
      const sql = (text: string, params: unknown[] = []) => dataSource.query(text, params);
      await dataSource.runMigrations({ transaction: "each" });
      await dataSource.undoLastMigration({ transaction: "each" });
      await sql(`INSERT INTO organizations (id, name) VALUES ('org_a', 'A')`);
      await sql(`INSERT INTO issued_login_ids (login_id, project_id) VALUES ('lp_1', 'proj_1')`);
      await sql(
        `INSERT INTO projects (id, organization_id, login_id, name, redirect_url) VALUES ('proj_1', 'org_a', 'lp_1', 'P', 'https://app.example.com/cb')`,
      );
      await sql(
        `INSERT INTO users (id, organization_id, project_id, email, email_normalized) VALUES ('usr_1', 'org_a', 'proj_1', 'a@x.test', 'a@x.test')`,
      );
      await sql(
        `INSERT INTO sso_connections (id, organization_id, project_id, name, issuer, client_id, client_secret_sealed, scopes)
       VALUES ('sso_1', 'org_a', 'proj_1', 'IdP', 'https://idp.example.com', 'c', 's', '{openid}')`,
      );
      for (const subject of ["one", "two", "three"])
        await sql(
          `INSERT INTO sso_identities (project_id, issuer, subject, user_id, connection_id, linked_at)
         VALUES ('proj_1', 'https://idp.example.com', $1, 'usr_1', 'sso_1', now())`,
          [subject],
        );

      await dataSource.runMigrations({ transaction: "each" });
      const ids = (await sql(`SELECT id FROM sso_identities`)).map((r: { id: string }) => r.id);
      expect(ids).toHaveLength(3);
      expect(new Set(ids).size).toBe(3);
      for (const id of ids) expect(isIdOf("idn", id), id).toBe(true);
      await expect(sql(`UPDATE sso_identities SET id = $1 WHERE subject = 'two'`, [ids[0]])).rejects.toThrow(
        /sso_identities_id_key/,
      );
      await expect(sql(`UPDATE sso_identities SET id = NULL WHERE subject = 'two'`)).rejects.toThrow();
    });
  },
);
