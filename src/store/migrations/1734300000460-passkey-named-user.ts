import type { MigrationInterface, QueryRunner } from "typeorm";

// An email-first passkey sign-in is bound to the user its address names, or, for an address no
// user has, to nobody (issue 46). Its challenge kept the user in user_id and nothing for an
// unknown address, so any passkey of the project finished that one, and a finish that signed in
// told the address was free; and user_id's foreign key, checked on insert with a lock on the
// user's row, made a registered address's start slower than an unknown one's. The named user
// (or '' for none) now has a column of its own, with no foreign key.
export class PasskeyNamedUser1734300000460 implements MigrationInterface {
  name = "PasskeyNamedUser1734300000460";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE passkey_challenges ADD COLUMN named_user_id text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE passkey_challenges DROP COLUMN named_user_id`);
  }
}
