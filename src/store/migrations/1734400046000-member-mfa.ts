import type { MigrationInterface, QueryRunner } from "typeorm";

// Members' second factor (issue 46): TOTP factors, recovery codes and passkeys of member
// identities (a factor guards every organization the identity belongs to), the challenges
// that hold a member sign-in at its second factor, an organization's `require_member_mfa`,
// and whether a management token was issued after a second factor.
export class MemberMfa1734400046000 implements MigrationInterface {
  name = "MemberMfa1734400046000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations ADD COLUMN require_member_mfa boolean NOT NULL DEFAULT false`);
    // Tokens issued before this migration proved a password only.
    await q.query(`ALTER TABLE management_tokens ADD COLUMN second_factor boolean NOT NULL DEFAULT false`);

    // The TOTP seed sealed with the secret box (associated data: the factor id); `last_step`
    // makes each accepted code single-use (one conditional UPDATE).
    await q.query(`
      CREATE TABLE member_mfa_factors (
        id             text PRIMARY KEY,
        identity_id    text NOT NULL,
        method         text NOT NULL,
        secret_sealed  text NOT NULL,
        confirmed_at   timestamptz,
        last_step      bigint,
        attempts       integer NOT NULL DEFAULT 0,
        created_at     timestamptz NOT NULL,
        CONSTRAINT member_mfa_factors_method_check CHECK (method IN ('totp')),
        CONSTRAINT member_mfa_factors_identity_method_key UNIQUE (identity_id, method),
        CONSTRAINT member_mfa_factors_identity_fkey FOREIGN KEY (identity_id)
          REFERENCES member_identities (id) ON DELETE CASCADE
      )`);

    // HMACs under a key derived from GATEHOUSE_SECRET, as end users' recovery codes.
    await q.query(`
      CREATE TABLE member_recovery_codes (
        identity_id  text NOT NULL,
        code_hmac    text NOT NULL,
        used_at      timestamptz,
        created_at   timestamptz NOT NULL,
        CONSTRAINT member_recovery_codes_pkey PRIMARY KEY (identity_id, code_hmac),
        CONSTRAINT member_recovery_codes_identity_fkey FOREIGN KEY (identity_id)
          REFERENCES member_identities (id) ON DELETE CASCADE
      )`);

    // A member's mfa_token (SHA-256), bound to the membership the sign-in is for.
    await q.query(`
      CREATE TABLE member_mfa_challenges (
        token_hash       text PRIMARY KEY,
        identity_id      text NOT NULL,
        organization_id  text NOT NULL,
        member_id        text NOT NULL,
        purpose          text NOT NULL,
        attempts         integer NOT NULL DEFAULT 0,
        expires_at       timestamptz NOT NULL,
        consumed_at      timestamptz,
        created_at       timestamptz NOT NULL,
        CONSTRAINT member_mfa_challenges_purpose_check CHECK (purpose IN ('verify', 'enroll')),
        CONSTRAINT member_mfa_challenges_member_fkey FOREIGN KEY (organization_id, member_id)
          REFERENCES members (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT member_mfa_challenges_identity_fkey FOREIGN KEY (identity_id)
          REFERENCES member_identities (id) ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE INDEX member_mfa_challenges_member_idx ON member_mfa_challenges (organization_id, member_id)`,
    );

    // The console's relying party is one for the whole server: a credential id is unique.
    await q.query(`
      CREATE TABLE member_passkeys (
        id               text PRIMARY KEY,
        identity_id      text NOT NULL,
        credential_id    text NOT NULL,
        public_key       text NOT NULL,
        counter          bigint NOT NULL DEFAULT 0,
        transports       text[] NOT NULL DEFAULT '{}',
        backup_eligible  boolean NOT NULL,
        backed_up        boolean NOT NULL,
        name             text NOT NULL,
        created_at       timestamptz NOT NULL,
        last_used_at     timestamptz,
        CONSTRAINT member_passkeys_credential_key UNIQUE (credential_id),
        CONSTRAINT member_passkeys_identity_fkey FOREIGN KEY (identity_id)
          REFERENCES member_identities (id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX member_passkeys_identity_idx ON member_passkeys (identity_id, created_at)`);

    await q.query(`
      CREATE TABLE member_passkey_challenges (
        id               text PRIMARY KEY,
        identity_id      text NOT NULL,
        purpose          text NOT NULL,
        challenge_hash   text NOT NULL,
        rp_id            text NOT NULL,
        origins          text[] NOT NULL,
        mfa_token_hash   text,
        expires_at       timestamptz NOT NULL,
        used_at          timestamptz,
        created_at       timestamptz NOT NULL,
        CONSTRAINT member_passkey_challenges_purpose_check CHECK (purpose IN ('registration', 'sign_in')),
        CONSTRAINT member_passkey_challenges_identity_fkey FOREIGN KEY (identity_id)
          REFERENCES member_identities (id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX member_passkey_challenges_expires_idx ON member_passkey_challenges (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE member_passkey_challenges`);
    await q.query(`DROP TABLE member_passkeys`);
    await q.query(`DROP TABLE member_mfa_challenges`);
    await q.query(`DROP TABLE member_recovery_codes`);
    await q.query(`DROP TABLE member_mfa_factors`);
    await q.query(`ALTER TABLE management_tokens DROP COLUMN second_factor`);
    await q.query(`ALTER TABLE organizations DROP COLUMN require_member_mfa`);
  }
}
