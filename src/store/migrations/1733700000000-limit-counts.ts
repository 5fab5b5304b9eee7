import type { MigrationInterface, QueryRunner } from "typeorm";

// The rate-limit counts that a try or a send changes several of at once, in one statement
// (src/limits/counts-postgres.ts), move from rate-limiter-flexible's table `rate_limits` to
// this one of ours: that table's layout is the library's, not ours to query. `rate_limits`
// stays for the library's own counters. The rows those counts had there are left to the
// library's sweep: on upgrade, failures, tries and sends counted so far start again from zero
// (the windows are minutes to a day; an account's failures, at most 12 hours).
export class LimitCounts1733700000000 implements MigrationInterface {
  name = "LimitCounts1733700000000";

  async up(q: QueryRunner): Promise<void> {
    // expire: epoch milliseconds; a row at or past it counts as absent until the sweep deletes it.
    await q.query(`CREATE TABLE limit_counts (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL,
      expire bigint NOT NULL
    )`);
    await q.query(`CREATE INDEX limit_counts_expire_idx ON limit_counts (expire)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS limit_counts`);
  }
}
