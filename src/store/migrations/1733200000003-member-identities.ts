import type { MigrationInterface, QueryRunner } from "typeorm";

// Members in several organizations, member logout and password resets (issue 13).
// Reserved here so the change that fills it keeps its place in the order.
export class MemberIdentities1733200000003 implements MigrationInterface {
  name = "MemberIdentities1733200000003";

  async up(_q: QueryRunner): Promise<void> {}

  async down(_q: QueryRunner): Promise<void> {}
}
