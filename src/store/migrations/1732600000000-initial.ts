import type { MigrationInterface, QueryRunner } from "typeorm";

// Raw SQL so the schema is exactly what is reviewed here, on PostgreSQL and PGlite alike.
// Every row carries its tenant (organization_id); every uniqueness rule is a constraint, so
// races are settled by the database and surface as 23505 (UniqueViolation).
export class Initial1732600000000 implements MigrationInterface {
  // Set explicitly: TypeORM reads the timestamp from the name, and class names may be mangled.
  name = "Initial1732600000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organizations (
        id          text PRIMARY KEY,
        name        text NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);

    // Members sign in with their email alone, so the normalized email is unique across all
    // organizations, not per organization.
    await q.query(`
      CREATE TABLE members (
        id                text PRIMARY KEY,
        organization_id   text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        email             text NOT NULL,
        email_normalized  text NOT NULL,
        role              text NOT NULL,
        password_hash     text NOT NULL,
        created_at        timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT members_email_normalized_key UNIQUE (email_normalized),
        CONSTRAINT members_role_check CHECK (role IN ('admin', 'developer')),
        -- Target of composite foreign keys, so a child row cannot name a member of another tenant.
        CONSTRAINT members_organization_id_id_key UNIQUE (organization_id, id)
      )`);
    await q.query(`CREATE INDEX members_org_created_idx ON members (organization_id, created_at DESC, id DESC)`);

    // Only the SHA-256 of a token is kept; the raw value exists only in the client's hands.
    await q.query(`
      CREATE TABLE management_tokens (
        id               text PRIMARY KEY,
        organization_id  text NOT NULL,
        member_id        text NOT NULL,
        token_hash       text NOT NULL,
        expires_at       timestamptz NOT NULL,
        created_at       timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT management_tokens_token_hash_key UNIQUE (token_hash),
        CONSTRAINT management_tokens_member_fkey FOREIGN KEY (organization_id, member_id)
          REFERENCES members (organization_id, id) ON DELETE CASCADE
      )`);
    // Serves the cascade from members and "revoke all tokens of a member".
    await q.query(`CREATE INDEX management_tokens_member_idx ON management_tokens (member_id)`);

    await q.query(`
      CREATE TABLE invitations (
        id                text PRIMARY KEY,
        organization_id   text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        email             text NOT NULL,
        email_normalized  text NOT NULL,
        role              text NOT NULL,
        token_hash        text NOT NULL,
        -- The invitation outlives the member who sent it.
        invited_by        text REFERENCES members(id) ON DELETE SET NULL,
        expires_at        timestamptz NOT NULL,
        accepted_at       timestamptz,
        created_at        timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT invitations_token_hash_key UNIQUE (token_hash),
        CONSTRAINT invitations_role_check CHECK (role IN ('admin', 'developer'))
      )`);
    await q.query(`CREATE INDEX invitations_org_email_idx ON invitations (organization_id, email_normalized)`);

    await q.query(`
      CREATE TABLE projects (
        id                    text PRIMARY KEY,
        organization_id       text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        login_id              text NOT NULL,
        name                  text NOT NULL,
        description           text NOT NULL DEFAULT '',
        token_expiry          integer NOT NULL DEFAULT 3600,
        refresh_token_expiry  integer NOT NULL DEFAULT 2592000,
        mfa_required          boolean NOT NULL DEFAULT false,
        send_verification     boolean NOT NULL DEFAULT false,
        allowed_origins       text[] NOT NULL DEFAULT '{}',
        redirect_url          text NOT NULL,
        created_at            timestamptz NOT NULL DEFAULT now(),
        updated_at            timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT projects_login_id_key UNIQUE (login_id),
        CONSTRAINT projects_organization_id_id_key UNIQUE (organization_id, id)
      )`);
    await q.query(`CREATE INDEX projects_org_created_idx ON projects (organization_id, created_at DESC, id DESC)`);

    // The composite key makes "a key of org A pointing at a project of org B" unrepresentable,
    // and deleting a project removes its keys in the same statement.
    await q.query(`
      CREATE TABLE api_keys (
        id               text PRIMARY KEY,
        organization_id  text NOT NULL,
        project_id       text NOT NULL,
        label            text NOT NULL,
        key_hash         text NOT NULL,
        key_hint         text NOT NULL,
        scopes           text[] NOT NULL,
        expires_at       timestamptz,
        revoked_at       timestamptz,
        created_at       timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash),
        CONSTRAINT api_keys_project_fkey FOREIGN KEY (organization_id, project_id)
          REFERENCES projects (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX api_keys_org_created_idx ON api_keys (organization_id, created_at DESC, id DESC)`);
    // Serves the cascade from projects and per-project listings.
    await q.query(`CREATE INDEX api_keys_project_idx ON api_keys (project_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ["api_keys", "projects", "invitations", "management_tokens", "members", "organizations"]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
