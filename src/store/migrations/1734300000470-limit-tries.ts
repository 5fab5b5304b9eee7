import type { MigrationInterface, QueryRunner } from "typeorm";

// The sign-in tries being checked right now (src/limits/in-flight-postgres.ts): a row per try
// and subject, inserted before the password or code is checked and deleted when it has its
// answer. Counting these beside the failures in `limit_counts` lets right answers go through
// in parallel without a count row that every sign-in of one account would update (issue 46).
export class LimitTries1734300000470 implements MigrationInterface {
  name = "LimitTries1734300000470";

  async up(q: QueryRunner): Promise<void> {
    // subject: the failure count's key (`fail_account:<project>:<hmac>`); expire: epoch ms, the
    // try's lease, after which a row left by an instance that died mid-check counts for nothing.
    await q.query(`CREATE TABLE limit_tries (
      subject varchar(255) NOT NULL,
      id uuid NOT NULL,
      expire bigint NOT NULL,
      PRIMARY KEY (subject, id)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS limit_tries`);
  }
}
