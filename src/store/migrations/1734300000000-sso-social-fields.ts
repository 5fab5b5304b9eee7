import type { MigrationInterface, QueryRunner } from "typeorm";

// Social sign-in presets, second part (issue 29): Microsoft (an allowlist of Entra ID tenants)
// and Apple (its team, its key's id, and the key itself, sealed as the client secret is), and
// the place of each connection's button on the hosted sign-in page.
export class SsoSocialFields1734300000000 implements MigrationInterface {
  name = "SsoSocialFields1734300000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sso_connections DROP CONSTRAINT sso_connections_provider_check`);
    await q.query(`
      ALTER TABLE sso_connections
        ADD CONSTRAINT sso_connections_provider_check
          CHECK (provider IN ('oidc', 'google', 'gitlab', 'github', 'apple', 'microsoft', 'generic_oauth2')),
        ADD COLUMN allowed_tenants text[] NOT NULL DEFAULT '{}',
        ADD COLUMN team_id text NOT NULL DEFAULT '',
        ADD COLUMN key_id text NOT NULL DEFAULT '',
        ADD COLUMN private_key_sealed text,
        ADD COLUMN position integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sso_connections WHERE provider IN ('apple', 'microsoft')`);
    await q.query(`
      ALTER TABLE sso_connections
        DROP CONSTRAINT sso_connections_provider_check,
        DROP COLUMN position, DROP COLUMN private_key_sealed, DROP COLUMN key_id,
        DROP COLUMN team_id, DROP COLUMN allowed_tenants`);
    await q.query(
      `ALTER TABLE sso_connections ADD CONSTRAINT sso_connections_provider_check CHECK (provider IN ('oidc', 'google', 'gitlab', 'github', 'generic_oauth2'))`,
    );
  }
}
