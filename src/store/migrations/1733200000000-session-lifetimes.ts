import type { MigrationInterface, QueryRunner } from "typeorm";

// Session lifetimes: an idle timeout per project beside the absolute one (issue 13).
// 0 is off (every existing project keeps its behaviour); otherwise at least 300 seconds and at
// most the largest absolute lifetime, the bounds UpdateProject enforces with a violation.
export class SessionLifetimes1733200000000 implements MigrationInterface {
  name = "SessionLifetimes1733200000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects
      ADD COLUMN session_idle_timeout integer NOT NULL DEFAULT 0,
      ADD CONSTRAINT projects_session_idle_timeout_check
        CHECK (session_idle_timeout = 0 OR session_idle_timeout BETWEEN 300 AND 31536000)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects
      DROP CONSTRAINT IF EXISTS projects_session_idle_timeout_check,
      DROP COLUMN IF EXISTS session_idle_timeout`);
  }
}
