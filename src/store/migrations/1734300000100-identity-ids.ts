import type { MigrationInterface, QueryRunner } from "typeorm";

// Linked identities get an id of their own (issue 29), so a user can name one to UnlinkIdentity
// without handing back the provider's issuer and subject. Rows linked before get one here:
// `idn_` and 26 hex digits of a random UUID (hex is within the ids' base32 alphabet, so
// isIdOf("idn", …) accepts them); new rows get crypto/ids.ts's time-ordered ids.
export class IdentityIds1734300000100 implements MigrationInterface {
  name = "IdentityIds1734300000100";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sso_identities ADD COLUMN id text`);
    await q.query(`UPDATE sso_identities SET id = 'idn_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 26)`);
    await q.query(
      `ALTER TABLE sso_identities ALTER COLUMN id SET NOT NULL, ADD CONSTRAINT sso_identities_id_key UNIQUE (id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sso_identities DROP CONSTRAINT sso_identities_id_key, DROP COLUMN id`);
  }
}
