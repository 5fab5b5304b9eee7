import type { MigrationInterface, QueryRunner } from "typeorm";

// What a project's hosted pages show (docs/pages.md): empty strings mean the project's name,
// no logo and Gatehouse's own colour, so existing projects need no value.
export class ProjectBranding1733500000000 implements MigrationInterface {
  name = "ProjectBranding1733500000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects
      ADD COLUMN display_name text NOT NULL DEFAULT '',
      ADD COLUMN logo_url text NOT NULL DEFAULT '',
      ADD COLUMN accent_color text NOT NULL DEFAULT ''`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects DROP COLUMN display_name, DROP COLUMN logo_url, DROP COLUMN accent_color`);
  }
}
