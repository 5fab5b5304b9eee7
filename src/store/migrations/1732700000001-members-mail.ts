import type { MigrationInterface, QueryRunner } from "typeorm";

export class MembersMail1732700000001 implements MigrationInterface {
  name = "MembersMail1732700000001";

  public async up(q: QueryRunner): Promise<void> {
    // One pending invitation per email and organization: inviting again replaces it in one
    // upsert, so two racing invites cannot leave two live links behind.
    await q.query(`
      CREATE UNIQUE INDEX invitations_pending_email_key
        ON invitations (organization_id, email_normalized) WHERE accepted_at IS NULL`);

    // Outgoing messages, written in the flow's transaction and delivered after commit by a
    // worker on any instance. The body holds secret links, so it is sealed (AES-256-GCM,
    // bound to the row id) and dropped once sent; recipient and subject stay for operators.
    await q.query(`
      CREATE TABLE outbox (
        id               text PRIMARY KEY,
        channel          text NOT NULL,
        recipient        text NOT NULL,
        subject          text NOT NULL DEFAULT '',
        body_sealed      text,
        attempts         integer NOT NULL DEFAULT 0,
        last_error       text,
        next_attempt_at  timestamptz NOT NULL,
        sent_at          timestamptz,
        created_at       timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT outbox_channel_check CHECK (channel IN ('email', 'sms')),
        CONSTRAINT outbox_pending_body_check CHECK (sent_at IS NOT NULL OR body_sealed IS NOT NULL)
      )`);
    // Serves the worker's "due and unsent" claim, and only holds unsent rows.
    await q.query(`CREATE INDEX outbox_due_idx ON outbox (next_attempt_at) WHERE sent_at IS NULL`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS outbox`);
    await q.query(`DROP INDEX IF EXISTS invitations_pending_email_key`);
  }
}
