import type { MigrationInterface, QueryRunner } from "typeorm";

// Projects and API keys of the Account interface: the login-id registry, per-project signing
// keys, range checks behind the proto's rules, and the index of the per-project key list.
export class ProjectsApiKeys1732700000000 implements MigrationInterface {
  name = "ProjectsApiKeys1732700000000";

  public async up(q: QueryRunner): Promise<void> {
    // A login_id names a project publicly (JWKS URL, token issuer, SSO links), so it is never
    // issued twice, not even after its project is deleted: a stale link or token must never
    // reach a newer project. The registry has no foreign key to projects, so it outlives them;
    // projects point at it with (login_id, id), so the database itself refuses a project that
    // takes a login_id issued to another project id.
    await q.query(`
      CREATE TABLE issued_login_ids (
        login_id    text PRIMARY KEY,
        project_id  text NOT NULL,
        issued_at   timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT issued_login_ids_login_id_project_id_key UNIQUE (login_id, project_id)
      )`);
    await q.query(
      `INSERT INTO issued_login_ids (login_id, project_id, issued_at) SELECT login_id, id, created_at FROM projects`,
    );
    await q.query(`
      ALTER TABLE projects
        ADD CONSTRAINT projects_login_id_issued_fkey FOREIGN KEY (login_id, id)
          REFERENCES issued_login_ids (login_id, project_id),
        ADD CONSTRAINT projects_token_expiry_check CHECK (token_expiry BETWEEN 60 AND 86400),
        ADD CONSTRAINT projects_refresh_token_expiry_check CHECK (refresh_token_expiry BETWEEN 3600 AND 31536000)`);

    await q.query(`
      ALTER TABLE api_keys
        ADD CONSTRAINT api_keys_scopes_check
          CHECK (scopes <@ ARRAY['auth:read', 'auth:write', 'users:read', 'users:write']::text[])`);
    // ListApiKeys filtered by project: keyset order within (organization, project). It also
    // serves the cascade from projects, whose foreign key is (organization_id, project_id).
    await q.query(`
      CREATE INDEX api_keys_org_project_created_idx
        ON api_keys (organization_id, project_id, created_at DESC, id DESC)`);

    // Each project signs its access tokens with its own key pair. The private JWK is only
    // stored sealed (AES-256-GCM under GATEHOUSE_SECRET, the kid as associated data, so a
    // value copied onto another row does not open). Deleting the project deletes its keys in
    // the same statement; a retired key (retired_at set) stays for verification a while.
    await q.query(`
      CREATE TABLE project_signing_keys (
        kid                 text PRIMARY KEY,
        organization_id     text NOT NULL,
        project_id          text NOT NULL,
        algorithm           text NOT NULL,
        public_jwk          jsonb NOT NULL,
        private_jwk_sealed  text NOT NULL,
        created_at          timestamptz NOT NULL DEFAULT now(),
        retired_at          timestamptz,
        CONSTRAINT project_signing_keys_project_fkey FOREIGN KEY (organization_id, project_id)
          REFERENCES projects (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT project_signing_keys_algorithm_check CHECK (algorithm IN ('ES256'))
      )`);
    // "Newest active key" and "the project's JWKS" (the Authentication side knows the project,
    // not the organization), and the lookup of the cascade above.
    await q.query(
      `CREATE INDEX project_signing_keys_project_idx ON project_signing_keys (project_id, created_at DESC)`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS project_signing_keys`);
    await q.query(`DROP INDEX IF EXISTS api_keys_org_project_created_idx`);
    await q.query(`ALTER TABLE api_keys DROP CONSTRAINT IF EXISTS api_keys_scopes_check`);
    await q.query(`
      ALTER TABLE projects
        DROP CONSTRAINT IF EXISTS projects_refresh_token_expiry_check,
        DROP CONSTRAINT IF EXISTS projects_token_expiry_check,
        DROP CONSTRAINT IF EXISTS projects_login_id_issued_fkey`);
    await q.query(`DROP TABLE IF EXISTS issued_login_ids`);
  }
}
