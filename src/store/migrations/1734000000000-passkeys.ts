import type { MigrationInterface, QueryRunner } from "typeorm";

// Passkeys (issue 27, API.md section 7): WebAuthn credentials of users, the single-use
// challenges of their ceremonies, and the project settings that shape them. A passkey is the MFA
// method `webauthn`: users.mfa_methods lists it while the user has one (repositories/mfa-methods.ts).
export class Passkeys1734000000000 implements MigrationInterface {
  name = "Passkeys1734000000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE projects
        ADD COLUMN passkey_rp_id text NOT NULL DEFAULT '',
        ADD COLUMN passkey_user_verification text NOT NULL DEFAULT 'preferred'
          CONSTRAINT projects_passkey_user_verification_check CHECK (passkey_user_verification IN ('preferred', 'required')),
        ADD COLUMN passkey_attestation text NOT NULL DEFAULT 'none'
          CONSTRAINT projects_passkey_attestation_check CHECK (passkey_attestation IN ('none', 'direct'))`);

    // The credential id is unique in a project whoever holds it: one authenticator answers
    // for one user. The public key is not a secret; the counter detects cloned keys.
    await q.query(`
      CREATE TABLE passkeys (
        id               text PRIMARY KEY,
        project_id       text NOT NULL,
        user_id          text NOT NULL,
        credential_id    text NOT NULL,
        public_key       text NOT NULL,
        counter          bigint NOT NULL DEFAULT 0,
        transports       text[] NOT NULL DEFAULT '{}',
        backup_eligible  boolean NOT NULL,
        backed_up        boolean NOT NULL,
        aaguid           text,
        name             text NOT NULL,
        created_at       timestamptz NOT NULL,
        last_used_at     timestamptz,
        CONSTRAINT passkeys_credential_key UNIQUE (project_id, credential_id),
        CONSTRAINT passkeys_user_fkey FOREIGN KEY (project_id, user_id)
          REFERENCES users (project_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX passkeys_user_idx ON passkeys (project_id, user_id, created_at)`);

    // One row per ceremony: the challenge as SHA-256, the relying party and origins chosen at
    // the start, and what it is bound to (a user, an mfa_token). Spent by the first finish.
    await q.query(`
      CREATE TABLE passkey_challenges (
        id               text PRIMARY KEY,
        project_id       text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        user_id          text,
        purpose          text NOT NULL,
        challenge_hash   text NOT NULL,
        rp_id            text NOT NULL,
        origins          text[] NOT NULL,
        mfa_token_hash   text,
        expires_at       timestamptz NOT NULL,
        used_at          timestamptz,
        created_at       timestamptz NOT NULL,
        CONSTRAINT passkey_challenges_purpose_check CHECK (purpose IN ('registration', 'sign_in')),
        CONSTRAINT passkey_challenges_user_fkey FOREIGN KEY (project_id, user_id)
          REFERENCES users (project_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX passkey_challenges_expires_idx ON passkey_challenges (expires_at)`);

    // The passkey that proved a sign-in's first factor: it cannot also be its second.
    await q.query(`ALTER TABLE mfa_challenges ADD COLUMN passkey_id text`);

    await q.query(`ALTER TABLE auth_events DROP CONSTRAINT auth_events_method_check`);
    await q.query(
      `ALTER TABLE auth_events ADD CONSTRAINT auth_events_method_check CHECK (method IN ('password', 'otp', 'magic_link', 'sso', 'mfa', 'refresh', 'passkey'))`,
    );

    // Webhook snapshots read the user's methods from the user row, which now lists `webauthn` too.
    await q.query(`
      CREATE OR REPLACE FUNCTION webhook_events_from_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        snapshot jsonb;
      BEGIN
        -- Most audit rows are of a project no endpoint listens to: one probe of a partial index
        -- and nothing else, on the sign-in and refresh paths (the snapshot below is dearer).
        IF NOT EXISTS (
          SELECT 1 FROM webhook_endpoints e
           WHERE e.project_id = NEW.project_id AND e.enabled AND NEW.type = ANY (e.audit_types)
        ) THEN
          RETURN NULL;
        END IF;
        IF NEW.user_id IS NOT NULL THEN
          SELECT jsonb_build_object(
                   'id', u.id, 'email', COALESCE(u.email, ''), 'email_verified', u.email_verified,
                   'phone', COALESCE(u.phone, ''), 'phone_verified', u.phone_verified,
                   'mfa_methods', u.mfa_methods,
                   'metadata', u.metadata, 'app_metadata', u.app_metadata, 'disabled', u.disabled,
                   'created_at', to_char(u.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                   'last_login_at', to_char(u.last_login_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
            INTO snapshot
            FROM users u WHERE u.project_id = NEW.project_id AND u.id = NEW.user_id;
        END IF;
        PERFORM webhook_enqueue(
          'evt_' || substring(NEW.id FROM 5), NEW.organization_id, NEW.project_id, NEW.type, NEW.user_id,
          NEW.actor_type, NEW.actor_id, NEW.target_id, NEW.reason, NEW.details, snapshot, NEW.created_at);
        RETURN NULL;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION webhook_events_from_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        snapshot jsonb;
      BEGIN
        -- Most audit rows are of a project no endpoint listens to: one probe of a partial index
        -- and nothing else, on the sign-in and refresh paths (the snapshot below is dearer).
        IF NOT EXISTS (
          SELECT 1 FROM webhook_endpoints e
           WHERE e.project_id = NEW.project_id AND e.enabled AND NEW.type = ANY (e.audit_types)
        ) THEN
          RETURN NULL;
        END IF;
        IF NEW.user_id IS NOT NULL THEN
          SELECT jsonb_build_object(
                   'id', u.id, 'email', COALESCE(u.email, ''), 'email_verified', u.email_verified,
                   'phone', COALESCE(u.phone, ''), 'phone_verified', u.phone_verified,
                   'mfa_methods', ARRAY(SELECT f.method FROM mfa_factors f
                                         WHERE f.project_id = u.project_id AND f.user_id = u.id
                                           AND f.confirmed_at IS NOT NULL ORDER BY f.method),
                   'metadata', u.metadata, 'app_metadata', u.app_metadata, 'disabled', u.disabled,
                   'created_at', to_char(u.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                   'last_login_at', to_char(u.last_login_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
            INTO snapshot
            FROM users u WHERE u.project_id = NEW.project_id AND u.id = NEW.user_id;
        END IF;
        PERFORM webhook_enqueue(
          'evt_' || substring(NEW.id FROM 5), NEW.organization_id, NEW.project_id, NEW.type, NEW.user_id,
          NEW.actor_type, NEW.actor_id, NEW.target_id, NEW.reason, NEW.details, snapshot, NEW.created_at);
        RETURN NULL;
      END $$`);
    await q.query(`DELETE FROM auth_events WHERE method = 'passkey'`);
    await q.query(`ALTER TABLE auth_events DROP CONSTRAINT auth_events_method_check`);
    await q.query(
      `ALTER TABLE auth_events ADD CONSTRAINT auth_events_method_check CHECK (method IN ('password', 'otp', 'magic_link', 'sso', 'mfa', 'refresh'))`,
    );
    await q.query(`ALTER TABLE mfa_challenges DROP COLUMN passkey_id`);
    await q.query(`DROP TABLE passkey_challenges`);
    await q.query(`DROP TABLE passkeys`);
    await q.query(
      `UPDATE users SET mfa_methods = array_remove(mfa_methods, 'webauthn') WHERE 'webauthn' = ANY (mfa_methods)`,
    );
    await q.query(
      `ALTER TABLE projects DROP COLUMN passkey_rp_id, DROP COLUMN passkey_user_verification, DROP COLUMN passkey_attestation`,
    );
  }
}
