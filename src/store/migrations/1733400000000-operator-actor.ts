import type { MigrationInterface, QueryRunner } from "typeorm";

// The CLI (`npm run gatehouse -- …`) acts with no member's token: it is an operator on the
// server's machine, and the audit log names it as such (actor_type `operator`, actor_id the
// operating-system account) rather than passing it off as a member or as nobody.
export class OperatorActor1733400000000 implements MigrationInterface {
  name = "OperatorActor1733400000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_type_check,
      ADD CONSTRAINT audit_events_actor_type_check CHECK (actor_type IN ('user', 'member', 'api_key', 'operator', 'anonymous'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    // The events stay; only who made them is lost.
    await q.query(`UPDATE audit_events SET actor_type = 'anonymous', actor_id = '' WHERE actor_type = 'operator'`);
    await q.query(`ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_type_check,
      ADD CONSTRAINT audit_events_actor_type_check CHECK (actor_type IN ('user', 'member', 'api_key', 'anonymous'))`);
  }
}
