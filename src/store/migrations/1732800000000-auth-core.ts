import type { MigrationInterface, QueryRunner } from "typeorm";

// End users and their credentials, inside one project. Every table carries project_id and
// reaches its parent through a composite key, so a row can never point across projects, and
// deleting a project (or a user) removes everything below it in the same statement.
export class AuthCore1732800000000 implements MigrationInterface {
  name = "AuthCore1732800000000";

  async up(q: QueryRunner): Promise<void> {
    // Substring search on emails (ListUsers `search`) uses a trigram GIN index; PGlite loads
    // the extension's module itself (store/embedded-postgres.ts).
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`
      CREATE TABLE users (
        id                text PRIMARY KEY,
        organization_id   text NOT NULL,
        project_id        text NOT NULL,
        email             text NOT NULL,
        email_normalized  text NOT NULL,
        password_hash     text,
        email_verified    boolean NOT NULL DEFAULT false,
        phone             text,
        phone_verified    boolean NOT NULL DEFAULT false,
        metadata          jsonb NOT NULL DEFAULT '{}'::jsonb,
        disabled          boolean NOT NULL DEFAULT false,
        created_at        timestamptz NOT NULL DEFAULT now(),
        updated_at        timestamptz NOT NULL DEFAULT now(),
        last_login_at     timestamptz,
        CONSTRAINT users_project_email_key UNIQUE (project_id, email_normalized),
        CONSTRAINT users_project_id_id_key UNIQUE (project_id, id),
        CONSTRAINT users_project_fkey FOREIGN KEY (organization_id, project_id)
          REFERENCES projects (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX users_project_created_idx ON users (project_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX users_email_trgm_idx ON users USING gin (email_normalized gin_trgm_ops)`);

    // One row per sign-in. `expires_at` is the absolute end set by refresh_token_expiry.
    await q.query(`
      CREATE TABLE sessions (
        id              text PRIMARY KEY,
        project_id      text NOT NULL,
        user_id         text NOT NULL,
        ip_address      text NOT NULL DEFAULT '',
        user_agent      text NOT NULL DEFAULT '',
        amr             text[] NOT NULL DEFAULT '{}',
        created_at      timestamptz NOT NULL DEFAULT now(),
        last_active_at  timestamptz NOT NULL DEFAULT now(),
        expires_at      timestamptz NOT NULL,
        revoked_at      timestamptz,
        CONSTRAINT sessions_project_id_id_key UNIQUE (project_id, id),
        CONSTRAINT sessions_user_fkey FOREIGN KEY (project_id, user_id)
          REFERENCES users (project_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX sessions_user_idx ON sessions (project_id, user_id, created_at DESC)`);

    // Refresh tokens are kept only as SHA-256. After a rotation the successor pair is kept
    // sealed (AES-256-GCM) for the 10-second grace window, so a retried refresh gets the same
    // answer; outside the window a rotated token is reuse and revokes its session.
    await q.query(`
      CREATE TABLE refresh_tokens (
        id                text PRIMARY KEY,
        project_id        text NOT NULL,
        session_id        text NOT NULL,
        token_hash        text NOT NULL,
        created_at        timestamptz NOT NULL DEFAULT now(),
        expires_at        timestamptz NOT NULL,
        rotated_at        timestamptz,
        successor_sealed  text,
        revoked_at        timestamptz,
        CONSTRAINT refresh_tokens_token_hash_key UNIQUE (token_hash),
        CONSTRAINT refresh_tokens_session_fkey FOREIGN KEY (project_id, session_id)
          REFERENCES sessions (project_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id)`);

    // Access tokens revoked before they expire; rows past expires_at can be purged.
    await q.query(`
      CREATE TABLE revoked_access_tokens (
        jti         text PRIMARY KEY,
        project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        expires_at  timestamptz NOT NULL
      )`);

    // Single-use links (password reset, email verification), stored as SHA-256.
    await q.query(`
      CREATE TABLE user_tokens (
        id           text PRIMARY KEY,
        project_id   text NOT NULL,
        user_id      text NOT NULL,
        kind         text NOT NULL,
        token_hash   text NOT NULL,
        email        text NOT NULL,
        expires_at   timestamptz NOT NULL,
        consumed_at  timestamptz,
        created_at   timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT user_tokens_token_hash_key UNIQUE (token_hash),
        CONSTRAINT user_tokens_kind_check CHECK (kind IN ('password_reset', 'email_verification')),
        CONSTRAINT user_tokens_user_fkey FOREIGN KEY (project_id, user_id)
          REFERENCES users (project_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX user_tokens_user_idx ON user_tokens (project_id, user_id, kind)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ["user_tokens", "revoked_access_tokens", "refresh_tokens", "sessions", "users"]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
