import type { MigrationInterface, QueryRunner } from "typeorm";

export class MembersMail1732700000001 implements MigrationInterface {
  name = "MembersMail1732700000001";

  public async up(_queryRunner: QueryRunner): Promise<void> {}

  public async down(_queryRunner: QueryRunner): Promise<void> {}
}
