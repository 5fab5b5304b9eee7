import type { MigrationInterface, QueryRunner } from "typeorm";

// An email-first passkey sign-in for an address no user has is still bound to a user: to
// nobody. Without this mark its challenge looked like a discoverable one (user_id NULL), so any
// passkey of the project could finish it, and a finish that signed in told that the address was
// not a user's while a registered one answered PASSKEY_NOT_FOUND (issue 46).
export class PasskeyUserBound1734300000460 implements MigrationInterface {
  name = "PasskeyUserBound1734300000460";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE passkey_challenges ADD COLUMN user_bound boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE passkey_challenges DROP COLUMN user_bound`);
  }
}
