import type { MigrationInterface, QueryRunner } from "typeorm";

// Publishable and secret API keys (issue 13). Every key made before is a secret key, which is
// what the specification's default means; a publishable key carries only the auth scopes.
export class ApiKeyKinds1733200000002 implements MigrationInterface {
  name = "ApiKeyKinds1733200000002";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys ADD COLUMN kind text NOT NULL DEFAULT 'secret'`);
    await q.query(`ALTER TABLE api_keys ADD CONSTRAINT api_keys_kind_check CHECK (kind IN ('secret', 'publishable'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP COLUMN kind`);
  }
}
