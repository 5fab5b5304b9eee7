import type { MigrationInterface, QueryRunner } from "typeorm";

// Rate limits (issue 14). The counters' table has the shape rate-limiter-flexible's PostgreSQL
// store expects (key, points, expire in epoch milliseconds); it is made here, so the service
// never issues DDL at runtime. Projects keep only the limits their owner set (src/domain/rate-limits.ts
// holds the defaults), so an empty object means "all defaults".
export class RateLimits1733300000000 implements MigrationInterface {
  name = "RateLimits1733300000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE rate_limits (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    )`);
    // The library sweeps rows expired an hour ago every 5 minutes.
    await q.query(`CREATE INDEX rate_limits_expire_idx ON rate_limits (expire)`);
    await q.query(`ALTER TABLE projects ADD COLUMN rate_limits jsonb NOT NULL DEFAULT '{}'::jsonb,
      ADD CONSTRAINT projects_rate_limits_object_check CHECK (jsonb_typeof(rate_limits) = 'object')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE projects DROP CONSTRAINT IF EXISTS projects_rate_limits_object_check, DROP COLUMN IF EXISTS rate_limits`,
    );
    await q.query(`DROP TABLE IF EXISTS rate_limits`);
  }
}
