import type { MigrationInterface, QueryRunner } from "typeorm";

// The OpenID Provider (issue 28, API.md section 7): each project's OAuth clients, the consent
// each user gave each client, and what the protocol engine (oidc-provider) stores between
// requests: authorization codes, tokens, grants, its sessions and interactions, device codes.
export class OpenidProvider1734100000000 implements MigrationInterface {
  name = "OpenidProvider1734100000000";

  async up(q: QueryRunner): Promise<void> {
    // The secret is stored as SHA-256 only (as API keys): the engine is handed the one the
    // client presented once that matches (flows/oidc/clients.ts).
    await q.query(`
      CREATE TABLE oauth_clients (
        id                         text PRIMARY KEY,
        organization_id            text NOT NULL,
        project_id                 text NOT NULL,
        name                       text NOT NULL,
        type                       text NOT NULL,
        secret_hash                text,
        secret_hint                text,
        redirect_uris              text[] NOT NULL DEFAULT '{}',
        post_logout_redirect_uris  text[] NOT NULL DEFAULT '{}',
        grant_types                text[] NOT NULL,
        scopes                     text[] NOT NULL,
        first_party                boolean NOT NULL DEFAULT false,
        logo_uri                   text NOT NULL DEFAULT '',
        created_at                 timestamptz NOT NULL,
        updated_at                 timestamptz NOT NULL,
        CONSTRAINT oauth_clients_type_check CHECK (type IN ('confidential', 'public')),
        CONSTRAINT oauth_clients_secret_check CHECK ((type = 'confidential') = (secret_hash IS NOT NULL)),
        CONSTRAINT oauth_clients_project_key UNIQUE (project_id, id),
        CONSTRAINT oauth_clients_project_fkey FOREIGN KEY (organization_id, project_id)
          REFERENCES projects (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE INDEX oauth_clients_project_created_idx ON oauth_clients (organization_id, project_id, created_at DESC, id DESC)`,
    );

    // Remembered consent, per user and client: the scopes granted. Withdrawn by
    // RevokeAuthorizedApp, which also ends what was issued under it.
    await q.query(`
      CREATE TABLE oauth_consents (
        project_id  text NOT NULL,
        user_id     text NOT NULL,
        client_id   text NOT NULL,
        scopes      text[] NOT NULL,
        created_at  timestamptz NOT NULL,
        updated_at  timestamptz NOT NULL,
        CONSTRAINT oauth_consents_pkey PRIMARY KEY (project_id, user_id, client_id),
        CONSTRAINT oauth_consents_user_fkey FOREIGN KEY (project_id, user_id)
          REFERENCES users (project_id, id) ON DELETE CASCADE,
        CONSTRAINT oauth_consents_client_fkey FOREIGN KEY (project_id, client_id)
          REFERENCES oauth_clients (project_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX oauth_consents_client_idx ON oauth_consents (project_id, client_id)`);

    // The engine's models, one row each, as its adapter interface has them. The columns beside
    // the payload are what is looked up or cascaded by: a user's or a client's deletion, and a
    // revoked consent, end their codes and tokens; `session_id` binds a token to the Gatehouse
    // session it came from, so revoking that session ends it (flows/oidc/adapter.ts).
    await q.query(`
      CREATE TABLE oidc_payloads (
        model        text NOT NULL,
        id           text NOT NULL,
        project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        payload      jsonb NOT NULL,
        grant_id     text,
        user_code    text,
        uid          text,
        client_id    text,
        account_id   text,
        session_id   text,
        expires_at   timestamptz,
        consumed_at  timestamptz,
        CONSTRAINT oidc_payloads_pkey PRIMARY KEY (model, id),
        CONSTRAINT oidc_payloads_client_fkey FOREIGN KEY (project_id, client_id)
          REFERENCES oauth_clients (project_id, id) ON DELETE CASCADE,
        CONSTRAINT oidc_payloads_user_fkey FOREIGN KEY (project_id, account_id)
          REFERENCES users (project_id, id) ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE INDEX oidc_payloads_grant_idx ON oidc_payloads (project_id, grant_id) WHERE grant_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX oidc_payloads_user_code_idx ON oidc_payloads (project_id, user_code) WHERE user_code IS NOT NULL`,
    );
    await q.query(`CREATE INDEX oidc_payloads_uid_idx ON oidc_payloads (project_id, uid) WHERE uid IS NOT NULL`);
    await q.query(
      `CREATE INDEX oidc_payloads_account_client_idx ON oidc_payloads (project_id, account_id, client_id) WHERE account_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX oidc_payloads_client_idx ON oidc_payloads (project_id, client_id) WHERE client_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX oidc_payloads_expires_idx ON oidc_payloads (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE oidc_payloads`);
    await q.query(`DROP TABLE oauth_consents`);
    await q.query(`DROP TABLE oauth_clients`);
  }
}
