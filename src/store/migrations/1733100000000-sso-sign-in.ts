import type { MigrationInterface, QueryRunner } from "typeorm";

// SSO sign-in through OpenID Connect: the flows between SsoAuthorize and the callback, the
// identities linked to users, and the one-minute codes of the code handover.
export class SsoSignIn1733100000000 implements MigrationInterface {
  name = "SsoSignIn1733100000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sso_connections ADD COLUMN trust_emails boolean NOT NULL DEFAULT false`);

    // One row per SsoAuthorize, used once by the callback. The state is looked up by its
    // SHA-256; the nonce and the PKCE verifier must be sent on, so they are sealed (bound to
    // the flow id). `code_challenge` is the application's, for the code handover.
    await q.query(`
      CREATE TABLE sso_flows (
        state_hash       text PRIMARY KEY,
        id               text NOT NULL,
        project_id       text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        connection_id    text NOT NULL REFERENCES sso_connections (id) ON DELETE CASCADE,
        nonce_sealed     text NOT NULL,
        verifier_sealed  text NOT NULL,
        redirect_url     text NOT NULL,
        code_challenge   text,
        expires_at       timestamptz NOT NULL,
        consumed_at      timestamptz,
        created_at       timestamptz NOT NULL,
        CONSTRAINT sso_flows_id_key UNIQUE (id)
      )`);

    // An identity is the provider's issuer and subject, once per project; it goes with its
    // user and with the connection it came through.
    await q.query(`
      CREATE TABLE sso_identities (
        project_id     text NOT NULL,
        issuer         text NOT NULL,
        subject        text NOT NULL,
        user_id        text NOT NULL,
        connection_id  text NOT NULL REFERENCES sso_connections (id) ON DELETE CASCADE,
        email          text NOT NULL DEFAULT '',
        linked_at      timestamptz NOT NULL,
        PRIMARY KEY (project_id, issuer, subject),
        CONSTRAINT sso_identities_user_fkey FOREIGN KEY (project_id, user_id)
          REFERENCES users (project_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX sso_identities_user_idx ON sso_identities (project_id, user_id, linked_at)`);

    // The code handover: what the callback proved (the identity), waiting 60 seconds for
    // SsoExchange to present the code (SHA-256 here) and the verifier of `code_challenge`.
    // No token is issued before the exchange, so none is stored.
    await q.query(`
      CREATE TABLE sso_handovers (
        code_hash       text PRIMARY KEY,
        project_id      text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        connection_id   text NOT NULL REFERENCES sso_connections (id) ON DELETE CASCADE,
        code_challenge  text NOT NULL,
        issuer          text NOT NULL,
        subject         text NOT NULL,
        email           text NOT NULL,
        expires_at      timestamptz NOT NULL,
        consumed_at     timestamptz,
        created_at      timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ["sso_handovers", "sso_identities", "sso_flows"])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    await q.query(`ALTER TABLE sso_connections DROP COLUMN IF EXISTS trust_emails`);
  }
}
