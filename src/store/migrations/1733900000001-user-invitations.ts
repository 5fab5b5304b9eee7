import type { MigrationInterface, QueryRunner } from "typeorm";

// Admin invitations of end users (issue 25, API.md section 7, InviteUser): the link that lets
// an invited user choose a password is a user_tokens row of kind `invitation`, stored as a
// hash like every other link, burned on use and removed with its user (ON DELETE CASCADE).
export class UserInvitations1733900000001 implements MigrationInterface {
  name = "UserInvitations1733900000001";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE user_tokens DROP CONSTRAINT user_tokens_kind_check`);
    await q.query(
      `ALTER TABLE user_tokens ADD CONSTRAINT user_tokens_kind_check CHECK (kind IN ('password_reset', 'email_verification', 'email_change', 'invitation'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM user_tokens WHERE kind = 'invitation'`);
    await q.query(`ALTER TABLE user_tokens DROP CONSTRAINT user_tokens_kind_check`);
    await q.query(
      `ALTER TABLE user_tokens ADD CONSTRAINT user_tokens_kind_check CHECK (kind IN ('password_reset', 'email_verification', 'email_change'))`,
    );
  }
}
