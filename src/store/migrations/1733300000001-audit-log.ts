import type { MigrationInterface, QueryRunner } from "typeorm";

// The audit log (issue 14), a table of its own rather than more columns on auth_events:
// auth_events is counted in aggregate for usage metrics (one narrow row per sign-in or refresh,
// kept as long as the bills need it, read by index-only scans), while the audit log is read
// row by row by people, holds failures and account changes that usage never counts, carries
// personal data (IP address, user agent) that DeleteUser clears, and is deleted after
// AUDIT_RETENTION_DAYS. Different shape, readers and lifetime: different tables.
//
// No foreign key to projects or users: an event outlives what it is about (project.deleted,
// user.deleted are events too). user_id becomes a keyed hash when the user is deleted.
export class AuditLog1733300000001 implements MigrationInterface {
  name = "AuditLog1733300000001";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_events (
        id               text COLLATE "C" PRIMARY KEY,
        organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        project_id       text COLLATE "C",
        type             text NOT NULL,
        user_id          text COLLATE "C",
        actor_type       text NOT NULL CHECK (actor_type IN ('user', 'member', 'api_key', 'anonymous')),
        actor_id         text COLLATE "C" NOT NULL,
        target_id        text COLLATE "C",
        ip_address       text,
        user_agent       text,
        reason           text,
        email_hash       text,
        details          jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at       timestamptz NOT NULL
      )`);
    // The list's keyset, newest first, for the organization and for each filter that narrows it.
    await q.query(`CREATE INDEX audit_events_org_idx ON audit_events (organization_id, created_at DESC, id DESC)`);
    await q.query(
      `CREATE INDEX audit_events_project_idx ON audit_events (organization_id, project_id, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX audit_events_user_idx ON audit_events (organization_id, user_id, created_at DESC, id DESC)`,
    );
    // The retention sweep deletes the oldest rows first, in bounded batches.
    await q.query(`CREATE INDEX audit_events_created_idx ON audit_events (created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS audit_events`);
  }
}
