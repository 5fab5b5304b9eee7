import type { MigrationInterface, QueryRunner } from "typeorm";

// Admin-only app_metadata and confirmed email changes (issue 13).
export class AppMetadataEmailChange1733200000001 implements MigrationInterface {
  name = "AppMetadataEmailChange1733200000001";

  async up(_q: QueryRunner): Promise<void> {}

  async down(_q: QueryRunner): Promise<void> {}
}
