import type { MigrationInterface, QueryRunner } from "typeorm";

// Passwordless sign-in (one-time codes, magic links) and multi-factor authentication (TOTP and
// SMS factors, sign-in challenges, recovery codes). Every secret here is stored as a hash or an
// HMAC keyed by the server secret, or sealed (TOTP seeds); every row carries its project and
// goes with its user or project (ON DELETE CASCADE).
export class PasswordlessMfa1733000000000 implements MigrationInterface {
  name = "PasswordlessMfa1733000000000";

  async up(q: QueryRunner): Promise<void> {
    // An SMS one-time code signs up a user who has a phone and no email.
    await q.query(`ALTER TABLE users ALTER COLUMN email DROP NOT NULL, ALTER COLUMN email_normalized DROP NOT NULL`);
    await q.query(
      `ALTER TABLE users ADD CONSTRAINT users_email_or_phone_check CHECK (email_normalized IS NOT NULL OR phone IS NOT NULL)`,
    );
    await q.query(`CREATE UNIQUE INDEX users_project_phone_key ON users (project_id, phone) WHERE phone IS NOT NULL`);
    // The confirmed factors' methods, kept by the statement that confirms or removes a factor
    // (repositories/mfa-factors.ts), so reading a user needs no join.
    await q.query(`ALTER TABLE users ADD COLUMN mfa_methods text[] NOT NULL DEFAULT '{}'`);

    // One live code per destination: a new send overwrites the row, so the previous code dies.
    // `sent_at` also enforces the one-send-per-minute rule in the same upsert.
    await q.query(`
      CREATE TABLE otp_codes (
        project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        channel      text NOT NULL,
        destination  text NOT NULL,
        code_hmac    text NOT NULL,
        attempts     integer NOT NULL DEFAULT 0,
        sent_at      timestamptz NOT NULL,
        expires_at   timestamptz NOT NULL,
        consumed_at  timestamptz,
        PRIMARY KEY (project_id, channel, destination),
        CONSTRAINT otp_codes_channel_check CHECK (channel IN ('email', 'sms'))
      )`);

    // One live link per email, the same way; the token is 256 random bits, stored as SHA-256.
    await q.query(`
      CREATE TABLE magic_links (
        project_id        text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        email_normalized  text NOT NULL,
        email             text NOT NULL,
        token_hash        text NOT NULL,
        sent_at           timestamptz NOT NULL,
        expires_at        timestamptz NOT NULL,
        consumed_at       timestamptz,
        PRIMARY KEY (project_id, email_normalized),
        CONSTRAINT magic_links_token_hash_key UNIQUE (token_hash)
      )`);

    // One factor per method and user; `confirmed_at` null is a pending enrollment. `last_step`
    // is the last TOTP time step accepted (RFC 6238 section 5.2: never accept a code twice).
    await q.query(`
      CREATE TABLE mfa_factors (
        id                       text PRIMARY KEY,
        project_id               text NOT NULL,
        user_id                  text NOT NULL,
        method                   text NOT NULL,
        secret_sealed            text,
        phone                    text,
        confirmed_at             timestamptz,
        last_step                bigint,
        pending_code_hmac        text,
        pending_code_expires_at  timestamptz,
        attempts                 integer NOT NULL DEFAULT 0,
        created_at               timestamptz NOT NULL,
        CONSTRAINT mfa_factors_user_method_key UNIQUE (project_id, user_id, method),
        CONSTRAINT mfa_factors_method_check CHECK (method IN ('totp', 'sms')),
        CONSTRAINT mfa_factors_user_fkey FOREIGN KEY (project_id, user_id)
          REFERENCES users (project_id, id) ON DELETE CASCADE
      )`);

    // An `mfa_token`: a sign-in held at its second factor (`verify`), or at enrollment in a
    // project with mfa_required (`enroll`). `amr` and `method` are what the first factor proved.
    await q.query(`
      CREATE TABLE mfa_challenges (
        token_hash     text PRIMARY KEY,
        project_id     text NOT NULL,
        user_id        text NOT NULL,
        purpose        text NOT NULL,
        amr            text[] NOT NULL,
        method         text NOT NULL,
        sms_code_hmac  text,
        attempts       integer NOT NULL DEFAULT 0,
        expires_at     timestamptz NOT NULL,
        consumed_at    timestamptz,
        created_at     timestamptz NOT NULL,
        CONSTRAINT mfa_challenges_purpose_check CHECK (purpose IN ('verify', 'enroll')),
        CONSTRAINT mfa_challenges_user_fkey FOREIGN KEY (project_id, user_id)
          REFERENCES users (project_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX mfa_challenges_user_idx ON mfa_challenges (project_id, user_id)`);

    await q.query(`
      CREATE TABLE recovery_codes (
        project_id  text NOT NULL,
        user_id     text NOT NULL,
        code_hmac   text NOT NULL,
        used_at     timestamptz,
        created_at  timestamptz NOT NULL,
        PRIMARY KEY (project_id, user_id, code_hmac),
        CONSTRAINT recovery_codes_user_fkey FOREIGN KEY (project_id, user_id)
          REFERENCES users (project_id, id) ON DELETE CASCADE
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ["recovery_codes", "mfa_challenges", "mfa_factors", "magic_links", "otp_codes"]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
    await q.query(`ALTER TABLE users DROP COLUMN IF EXISTS mfa_methods`);
    await q.query(`DROP INDEX IF EXISTS users_project_phone_key`);
    await q.query(`ALTER TABLE users DROP CONSTRAINT IF EXISTS users_email_or_phone_check`);
  }
}
