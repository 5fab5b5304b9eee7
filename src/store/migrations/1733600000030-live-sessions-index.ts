import type { MigrationInterface, QueryRunner } from "typeorm";

// A user's live sessions, newest first, without walking the ones already revoked: every
// sign-in reads them to keep the user within max_sessions_per_user (sign-ins.ts), and
// ListSessions pages them by (created_at, id). Revoked rows stay for the record and would
// otherwise grow the walk with every session the cap ends.
export class LiveSessionsIndex1733600000030 implements MigrationInterface {
  name = "LiveSessionsIndex1733600000030";

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX sessions_live_idx ON sessions (project_id, user_id, created_at DESC, id DESC) WHERE revoked_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS sessions_live_idx`);
  }
}
