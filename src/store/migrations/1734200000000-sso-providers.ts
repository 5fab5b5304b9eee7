import type { MigrationInterface, QueryRunner } from "typeorm";

// Social sign-in presets (issue 29, API.md section 7): an SSO connection names its kind of
// provider; the OAuth 2.0 kinds (GitHub, a generic OAuth 2.0 provider) carry their endpoints
// instead of an issuer, and the generic one its userinfo field names.
export class SsoProviders1734200000000 implements MigrationInterface {
  name = "SsoProviders1734200000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sso_connections
        ADD COLUMN provider text NOT NULL DEFAULT 'oidc'
          CONSTRAINT sso_connections_provider_check CHECK (provider IN ('oidc', 'github', 'generic_oauth2')),
        ADD COLUMN authorization_url text NOT NULL DEFAULT '',
        ADD COLUMN token_url text NOT NULL DEFAULT '',
        ADD COLUMN userinfo_url text NOT NULL DEFAULT '',
        ADD COLUMN claim_mapping jsonb NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sso_connections
        DROP COLUMN claim_mapping, DROP COLUMN userinfo_url, DROP COLUMN token_url,
        DROP COLUMN authorization_url, DROP COLUMN provider`);
  }
}
