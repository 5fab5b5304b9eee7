import type { MigrationInterface, QueryRunner } from "typeorm";

// PKCE (S256) is required of every OAuth client from here on, as OAuth 2.1 asks; before, the
// engine required it of public clients only. `allow_missing_pkce` is the documented exception
// for a confidential relying party whose software cannot send a code_challenge.
//
// A new client is made without the exception. A confidential client that existed before and
// may use the code flow is given it, so that an upgrade does not break a relying party that
// signed in yesterday: the console and ListOAuthClients show which clients have it, and the
// upgrade note (docs/openid-provider.md, "PKCE") asks the operator to turn it off for every
// client that sends PKCE. Public clients always had to send PKCE and cannot have it.
export class OauthClientPkce1734300004600 implements MigrationInterface {
  name = "OauthClientPkce1734300004600";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_clients ADD COLUMN allow_missing_pkce boolean NOT NULL DEFAULT false`);
    await q.query(
      `UPDATE oauth_clients SET allow_missing_pkce = true
        WHERE type = 'confidential' AND 'authorization_code' = ANY (grant_types)`,
    );
    await q.query(
      `ALTER TABLE oauth_clients ADD CONSTRAINT oauth_clients_pkce_check CHECK (type = 'confidential' OR NOT allow_missing_pkce)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_clients DROP CONSTRAINT oauth_clients_pkce_check`);
    await q.query(`ALTER TABLE oauth_clients DROP COLUMN allow_missing_pkce`);
  }
}
