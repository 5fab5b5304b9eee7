import { Check, Column, Entity, Index, PrimaryColumn } from "typeorm";
import type { OutboxChannel } from "../../domain/outbox.js";

/** Gatehouse's own delivery queue (migration 1732700000001; repositories/outbox.ts). */
@Entity({ name: "outbox" })
@Check("outbox_channel_check", `channel IN ('email', 'sms')`)
@Check("outbox_pending_body_check", `sent_at IS NOT NULL OR body_sealed IS NOT NULL`)
@Index("outbox_due_idx", ["nextAttemptAt"], { where: "sent_at IS NULL" })
export class OutboxMessageEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ type: "text" })
  channel!: OutboxChannel;

  @Column({ type: "text" })
  recipient!: string;

  @Column({ type: "text", default: "" })
  subject!: string;

  @Column({ name: "body_sealed", type: "text", nullable: true })
  bodySealed!: string | null;

  @Column({ type: "integer", default: 0 })
  attempts!: number;

  @Column({ name: "last_error", type: "text", nullable: true })
  lastError!: string | null;

  @Column({ name: "next_attempt_at", type: "timestamptz" })
  nextAttemptAt!: Date;

  @Column({ name: "sent_at", type: "timestamptz", nullable: true })
  sentAt!: Date | null;

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;
}
