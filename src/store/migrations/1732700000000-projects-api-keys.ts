import type { MigrationInterface, QueryRunner } from "typeorm";

export class ProjectsApiKeys1732700000000 implements MigrationInterface {
  name = "ProjectsApiKeys1732700000000";

  public async up(_queryRunner: QueryRunner): Promise<void> {}

  public async down(_queryRunner: QueryRunner): Promise<void> {}
}
