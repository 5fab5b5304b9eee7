import type { MigrationInterface, QueryRunner } from "typeorm";

export class SsoUsage1732700000002 implements MigrationInterface {
  name = "SsoUsage1732700000002";

  public async up(_queryRunner: QueryRunner): Promise<void> {}

  public async down(_queryRunner: QueryRunner): Promise<void> {}
}
