import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import { WebhookEndpointEntity } from "./webhook-endpoint.entity.js";
import { WebhookEventEntity } from "./webhook-event.entity.js";

/** One attempt as the delivery log keeps it. */
export interface WebhookAttemptRecord {
  at: string;
  status: number;
  latency_ms: number;
  error: string;
  excerpt: string;
}

/** One event for one endpoint, with its attempts (migration 1733900000000; repositories/webhook-deliveries.ts). */
@Entity({ name: "webhook_deliveries" })
@Check("webhook_deliveries_status_check", `status IN ('pending', 'succeeded', 'failed')`)
@Unique("webhook_deliveries_event_endpoint_key", ["eventId", "endpointId"])
@Index("webhook_deliveries_due_idx", ["nextAttemptAt"], { where: "status = 'pending'" })
// (endpoint_id, created_at DESC, id DESC): the delivery log's keyset listing.
@Index("webhook_deliveries_endpoint_idx", { synchronize: false })
export class WebhookDeliveryEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "event_id", type: "text" })
  eventId!: string;

  @Column({ name: "endpoint_id", type: "text" })
  endpointId!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ type: "text", default: "pending" })
  status!: "pending" | "succeeded" | "failed";

  @Column({ name: "attempt_count", type: "integer", default: 0 })
  attemptCount!: number;

  /** The last 20 attempts, oldest first. */
  @Column({ type: "jsonb", default: () => "'[]'" })
  attempts!: WebhookAttemptRecord[];

  /** When a pending delivery is due; while one is being sent, the end of its lease. */
  @Column({ name: "next_attempt_at", type: "timestamptz", nullable: true })
  nextAttemptAt!: Date | null;

  /** The event's time. */
  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @Column({ name: "updated_at", type: "timestamptz" })
  updatedAt!: Date;

  @ManyToOne(() => WebhookEventEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "event_id", foreignKeyConstraintName: "webhook_deliveries_event_id_fkey" })
  event?: WebhookEventEntity;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "endpoint_id", foreignKeyConstraintName: "webhook_deliveries_endpoint_id_fkey" })
  endpoint?: WebhookEndpointEntity;
}
