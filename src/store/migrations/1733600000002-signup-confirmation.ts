import type { MigrationInterface, QueryRunner } from "typeorm";

// A signup from a public credential waits for its address to be confirmed (docs/security.md,
// "No user enumeration"): it is kept as the address's magic link, with the password hash and
// metadata the user is made with when the link is opened. Both null for an ordinary sign-in link.
export class SignupConfirmation1733600000002 implements MigrationInterface {
  name = "SignupConfirmation1733600000002";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE magic_links
      ADD COLUMN signup_password_hash text,
      ADD COLUMN signup_metadata jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE magic_links DROP COLUMN signup_password_hash, DROP COLUMN signup_metadata`);
  }
}
