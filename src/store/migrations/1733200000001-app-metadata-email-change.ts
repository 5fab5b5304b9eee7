import type { MigrationInterface, QueryRunner } from "typeorm";

// Admin-only app_metadata and confirmed email changes (issue 13).
//
// `metadata` stays what it was (user-writable); whatever an application keeps there stays
// there: nothing is moved, since only the application knows which keys it trusts.
//
// A user's own email change is pending until the new address confirms it: the address waits in
// `new_email` (shown by GetUser while its link lives, until `new_email_expires_at`), and the
// link is a user_tokens row of kind `email_change` whose `email` is that new address.
export class AppMetadataEmailChange1733200000001 implements MigrationInterface {
  name = "AppMetadataEmailChange1733200000001";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN app_metadata jsonb NOT NULL DEFAULT '{}'::jsonb`);
    await q.query(`ALTER TABLE users ADD COLUMN new_email text, ADD COLUMN new_email_expires_at timestamptz`);
    await q.query(
      `ALTER TABLE users ADD CONSTRAINT users_new_email_check CHECK ((new_email IS NULL) = (new_email_expires_at IS NULL))`,
    );
    await q.query(`ALTER TABLE user_tokens DROP CONSTRAINT user_tokens_kind_check`);
    await q.query(
      `ALTER TABLE user_tokens ADD CONSTRAINT user_tokens_kind_check CHECK (kind IN ('password_reset', 'email_verification', 'email_change'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM user_tokens WHERE kind = 'email_change'`);
    await q.query(`ALTER TABLE user_tokens DROP CONSTRAINT user_tokens_kind_check`);
    await q.query(
      `ALTER TABLE user_tokens ADD CONSTRAINT user_tokens_kind_check CHECK (kind IN ('password_reset', 'email_verification'))`,
    );
    await q.query(`ALTER TABLE users DROP CONSTRAINT IF EXISTS users_new_email_check`);
    await q.query(
      `ALTER TABLE users DROP COLUMN IF EXISTS new_email_expires_at, DROP COLUMN IF EXISTS new_email, DROP COLUMN IF EXISTS app_metadata`,
    );
  }
}
