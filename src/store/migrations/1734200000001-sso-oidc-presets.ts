import type { MigrationInterface, QueryRunner } from "typeorm";

// Social sign-in presets on OpenID Connect (issue 29): Google (with an optional Workspace domain)
// and GitLab, beside the kinds of migration 1734200000000.
export class SsoOidcPresets1734200000001 implements MigrationInterface {
  name = "SsoOidcPresets1734200000001";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sso_connections DROP CONSTRAINT sso_connections_provider_check`);
    await q.query(`
      ALTER TABLE sso_connections
        ADD CONSTRAINT sso_connections_provider_check
          CHECK (provider IN ('oidc', 'google', 'gitlab', 'github', 'generic_oauth2')),
        ADD COLUMN hosted_domain text NOT NULL DEFAULT ''`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE sso_connections DROP CONSTRAINT sso_connections_provider_check, DROP COLUMN hosted_domain`,
    );
    await q.query(
      `ALTER TABLE sso_connections ADD CONSTRAINT sso_connections_provider_check CHECK (provider IN ('oidc', 'github', 'generic_oauth2'))`,
    );
  }
}
