import type { MigrationInterface, QueryRunner } from "typeorm";

// Signup controls (issue 25, API.md section 7): who may become a user through the public paths.
// The defaults keep every existing project as it was: open to all, by every method.
export class SignupControls1733800000000 implements MigrationInterface {
  name = "SignupControls1733800000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects
      ADD COLUMN signups text NOT NULL DEFAULT 'open'
        CONSTRAINT projects_signups_check CHECK (signups IN ('open', 'closed', 'allowlist')),
      ADD COLUMN signup_email_domains text[] NOT NULL DEFAULT '{}',
      ADD COLUMN signup_methods text[] NOT NULL DEFAULT '{password,otp,magic_link,sso}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE projects DROP COLUMN signups, DROP COLUMN signup_email_domains, DROP COLUMN signup_methods`,
    );
  }
}
