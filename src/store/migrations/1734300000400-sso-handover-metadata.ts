import type { MigrationInterface, QueryRunner } from "typeorm";

// Sign in with Apple tells the user's name once, on the first authorization, in its form post.
// When the application takes the code handover (SsoExchange), the user is made a minute later
// from this row, so the name waits here with it: sealed, since it is personal data, and gone
// with the row.
export class SsoHandoverMetadata1734300000400 implements MigrationInterface {
  name = "SsoHandoverMetadata1734300000400";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sso_handovers ADD COLUMN new_user_metadata_sealed text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sso_handovers DROP COLUMN new_user_metadata_sealed`);
  }
}
