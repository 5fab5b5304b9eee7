import { Column, Entity, PrimaryColumn } from "typeorm";
import type { OutboxChannel } from "../../domain/outbox.js";

@Entity({ name: "outbox" })
export class OutboxMessageEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ type: "text" })
  channel!: OutboxChannel;

  @Column({ type: "text" })
  recipient!: string;

  @Column({ type: "text" })
  subject!: string;

  @Column({ name: "body_sealed", type: "text", nullable: true })
  bodySealed!: string | null;

  @Column({ type: "integer" })
  attempts!: number;

  @Column({ name: "last_error", type: "text", nullable: true })
  lastError!: string | null;

  @Column({ name: "next_attempt_at", type: "timestamptz" })
  nextAttemptAt!: Date;

  @Column({ name: "sent_at", type: "timestamptz", nullable: true })
  sentAt!: Date | null;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;
}
