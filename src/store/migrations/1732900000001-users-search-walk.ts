import type { MigrationInterface, QueryRunner } from "typeorm";

// ListUsers search walks the newest rows of a project in order and keeps those whose email
// contains the substring (repositories/users.ts). With the email in the index, that walk reads
// the index alone instead of one heap page per row. Same key as the index it replaces, so
// plain listing and keyset pagination are served as before.
export class UsersSearchWalk1732900000001 implements MigrationInterface {
  name = "UsersSearchWalk1732900000001";

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX users_project_created_email_idx ON users (project_id, created_at DESC, id DESC) INCLUDE (email_normalized)`,
    );
    await q.query(`DROP INDEX users_project_created_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX users_project_created_idx ON users (project_id, created_at DESC, id DESC)`);
    await q.query(`DROP INDEX users_project_created_email_idx`);
  }
}
