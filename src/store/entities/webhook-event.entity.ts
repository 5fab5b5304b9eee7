import { Column, Entity, Index, PrimaryColumn } from "typeorm";

/**
 * One event of a project with at least one endpoint that wanted it, written by the
 * audit_events trigger (migration 1733900000000) or by SendTestWebhook. Never changed after.
 */
@Entity({ name: "webhook_events" })
@Index("webhook_events_occurred_idx", ["occurredAt"])
export class WebhookEventEntity {
  /** `evt_…`: the audit event's id with the prefix changed; the `webhook-id` of every attempt. */
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  /** The audit event type it comes from, or `webhook.test`. */
  @Column({ type: "text" })
  type!: string;

  @Column({ name: "user_id", type: "text", nullable: true })
  userId!: string | null;

  @Column({ name: "actor_type", type: "text" })
  actorType!: string;

  @Column({ name: "actor_id", type: "text" })
  actorId!: string;

  @Column({ name: "target_id", type: "text", nullable: true })
  targetId!: string | null;

  @Column({ type: "text", nullable: true })
  reason!: string | null;

  @Column({ type: "jsonb", default: () => "'{}'" })
  details!: Record<string, unknown>;

  /** The user's wire fields when the event happened; null when it names no user that existed then. */
  @Column({ name: "user_snapshot", type: "jsonb", nullable: true })
  userSnapshot!: Record<string, unknown> | null;

  @Column({ name: "occurred_at", type: "timestamptz" })
  occurredAt!: Date;
}
