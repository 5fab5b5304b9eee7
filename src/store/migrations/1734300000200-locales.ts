import type { MigrationInterface, QueryRunner } from "typeorm";

// Languages (issue 29, API.md section 7): a user's own `locale` ('' = none chosen) and the
// project's `default_locale`, both BCP 47 tags stored in canonical form. Existing projects
// keep speaking English, as before. A signup waiting for its address (a magic link) keeps the
// locale the signup gave, for the user its link makes.
export class Locales1734300000200 implements MigrationInterface {
  name = "Locales1734300000200";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN locale text NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE projects ADD COLUMN default_locale text NOT NULL DEFAULT 'en'`);
    await q.query(`ALTER TABLE magic_links ADD COLUMN signup_locale text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE magic_links DROP COLUMN signup_locale`);
    await q.query(`ALTER TABLE projects DROP COLUMN default_locale`);
    await q.query(`ALTER TABLE users DROP COLUMN locale`);
  }
}
