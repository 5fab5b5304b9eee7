import type { MigrationInterface, QueryRunner } from "typeorm";

// The project settings of the third security round (docs/security.md): where SMS may go,
// bot protection on the public sends, the cap of sessions per user, and whether public
// signups may tell that an email is registered. Defaults keep SMS and bot checks as they
// were and choose the safe side for the other two.
export class SendAndSessionSettings1733600000000 implements MigrationInterface {
  name = "SendAndSessionSettings1733600000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects
      ADD COLUMN sms_country_codes text[] NOT NULL DEFAULT '{}',
      ADD COLUMN bot_protection boolean NOT NULL DEFAULT false,
      ADD COLUMN max_sessions_per_user integer NOT NULL DEFAULT 50,
      ADD COLUMN reveal_email_exists boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects
      DROP COLUMN sms_country_codes, DROP COLUMN bot_protection, DROP COLUMN max_sessions_per_user, DROP COLUMN reveal_email_exists`);
  }
}
