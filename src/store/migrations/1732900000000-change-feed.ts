import type { MigrationInterface, QueryRunner } from "typeorm";

/** The channel every instance listens on (store/change-feed.ts parses the payloads). */
export const CHANGE_CHANNEL = "gatehouse_changes";

// Every write that can make a cached verification answer wrong announces itself on one
// channel, from the database itself: no flow can forget to, and NOTIFY is transactional, so
// nothing is announced for a rolled-back write. Payload: `kind:project_id:id` (`*` for "every
// row of that project", used when one statement deletes many rows, e.g. a project's cascade).
//
// Updates that cannot change an answer (session last_active_at, user last_login_at) stay quiet.
export class ChangeFeed1732900000000 implements MigrationInterface {
  name = "ChangeFeed1732900000000";

  async up(q: QueryRunner): Promise<void> {
    // Row triggers: TG_ARGV = (kind, project id column, row id column).
    await q.query(`
      CREATE FUNCTION gatehouse_notify_row() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        r jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
      BEGIN
        PERFORM pg_notify('${CHANGE_CHANNEL}', TG_ARGV[0] || ':' || (r ->> TG_ARGV[1]) || ':' || (r ->> TG_ARGV[2]));
        RETURN NULL;
      END $$`);
    // Statement triggers on DELETE: one notice per row for small deletes, one per project for
    // large ones (deleting a project with a million users must not queue a million notices).
    await q.query(`
      CREATE FUNCTION gatehouse_notify_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (SELECT count(*) FROM old_rows) <= 100 THEN
          PERFORM pg_notify('${CHANGE_CHANNEL}', TG_ARGV[0] || ':' || (to_jsonb(o) ->> TG_ARGV[1]) || ':' || (to_jsonb(o) ->> TG_ARGV[2]))
            FROM old_rows o;
        ELSE
          PERFORM pg_notify('${CHANGE_CHANNEL}', TG_ARGV[0] || ':' || p || ':*')
            FROM (SELECT DISTINCT to_jsonb(o) ->> TG_ARGV[1] AS p FROM old_rows o) projects;
        END IF;
        RETURN NULL;
      END $$`);
    // A revoked jti carries its expiry (epoch seconds): the deny list forgets it after that.
    await q.query(`
      CREATE FUNCTION gatehouse_notify_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${CHANGE_CHANNEL}',
          'revoked:' || NEW.project_id || ':' || NEW.jti || ':' || floor(extract(epoch FROM NEW.expires_at))::bigint);
        RETURN NULL;
      END $$`);

    const statements = [
      `CREATE TRIGGER projects_changes AFTER UPDATE OR DELETE ON projects
         FOR EACH ROW EXECUTE FUNCTION gatehouse_notify_row('projects', 'id', 'id')`,
      `CREATE TRIGGER api_keys_updates AFTER UPDATE ON api_keys
         FOR EACH ROW EXECUTE FUNCTION gatehouse_notify_row('api_keys', 'project_id', 'id')`,
      `CREATE TRIGGER api_keys_deletes AFTER DELETE ON api_keys REFERENCING OLD TABLE AS old_rows
         FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_notify_deleted('api_keys', 'project_id', 'id')`,
      `CREATE TRIGGER signing_keys_changes AFTER INSERT OR UPDATE ON project_signing_keys
         FOR EACH ROW EXECUTE FUNCTION gatehouse_notify_row('signing_keys', 'project_id', 'kid')`,
      `CREATE TRIGGER signing_keys_deletes AFTER DELETE ON project_signing_keys REFERENCING OLD TABLE AS old_rows
         FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_notify_deleted('signing_keys', 'project_id', 'kid')`,
      `CREATE TRIGGER revoked_access_tokens_inserts AFTER INSERT ON revoked_access_tokens
         FOR EACH ROW EXECUTE FUNCTION gatehouse_notify_revoked()`,
      `CREATE TRIGGER sessions_updates AFTER UPDATE ON sessions FOR EACH ROW
         WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
               OR OLD.user_id IS DISTINCT FROM NEW.user_id)
         EXECUTE FUNCTION gatehouse_notify_row('sessions', 'project_id', 'id')`,
      `CREATE TRIGGER sessions_deletes AFTER DELETE ON sessions REFERENCING OLD TABLE AS old_rows
         FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_notify_deleted('sessions', 'project_id', 'id')`,
      `CREATE TRIGGER users_updates AFTER UPDATE ON users FOR EACH ROW
         WHEN (OLD.disabled IS DISTINCT FROM NEW.disabled)
         EXECUTE FUNCTION gatehouse_notify_row('users', 'project_id', 'id')`,
      `CREATE TRIGGER users_deletes AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
         FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_notify_deleted('users', 'project_id', 'id')`,
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [trigger, table] of [
      ["projects_changes", "projects"],
      ["api_keys_updates", "api_keys"],
      ["api_keys_deletes", "api_keys"],
      ["signing_keys_changes", "project_signing_keys"],
      ["signing_keys_deletes", "project_signing_keys"],
      ["revoked_access_tokens_inserts", "revoked_access_tokens"],
      ["sessions_updates", "sessions"],
      ["sessions_deletes", "sessions"],
      ["users_updates", "users"],
      ["users_deletes", "users"],
    ]) {
      await q.query(`DROP TRIGGER IF EXISTS ${trigger} ON ${table}`);
    }
    for (const fn of ["gatehouse_notify_row", "gatehouse_notify_deleted", "gatehouse_notify_revoked"]) {
      await q.query(`DROP FUNCTION IF EXISTS ${fn}()`);
    }
  }
}
