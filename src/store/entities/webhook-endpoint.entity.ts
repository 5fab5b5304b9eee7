import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { ProjectEntity } from "./project.entity.js";

/** Where a project's events are POSTed (migration 1733900000000; repositories/webhook-endpoints.ts). */
@Entity({ name: "webhook_endpoints" })
@Check("webhook_endpoints_disabled_reason_check", `disabled_reason IN ('admin', 'failing')`)
// (organization_id, project_id, created_at DESC, id DESC): the keyset listing; TypeORM cannot state DESC keys.
@Index("webhook_endpoints_project_created_idx", { synchronize: false })
@Index("webhook_endpoints_enabled_idx", ["projectId"], { where: "enabled" })
export class WebhookEndpointEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ type: "text" })
  url!: string;

  /** As the admin chose them (`*` for all). */
  @Column({ name: "event_types", type: "text", array: true })
  eventTypes!: string[];

  /** The audit types those event types come from: what the audit_events trigger matches. */
  @Column({ name: "audit_types", type: "text", array: true })
  auditTypes!: string[];

  @Column({ name: "all_types", type: "boolean", default: false })
  allTypes!: boolean;

  @Column({ type: "boolean", default: true })
  enabled!: boolean;

  @Column({ name: "disabled_reason", type: "text", nullable: true })
  disabledReason!: "admin" | "failing" | null;

  /** SecretBox output, sealed with the row id as associated data. */
  @Column({ name: "secret_sealed", type: "text" })
  secretSealed!: string;

  @Column({ name: "previous_secret_sealed", type: "text", nullable: true })
  previousSecretSealed!: string | null;

  @Column({ name: "previous_secret_expires_at", type: "timestamptz", nullable: true })
  previousSecretExpiresAt!: Date | null;

  /** The first failed attempt of the current streak; null after a success. */
  @Column({ name: "failing_since", type: "timestamptz", nullable: true })
  failingSince!: Date | null;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @Column({ name: "updated_at", type: "timestamptz" })
  updatedAt!: Date;

  // Composite, so an endpoint can only name a project of its own organization.
  @ManyToOne(() => ProjectEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    {
      name: "organization_id",
      referencedColumnName: "organizationId",
      foreignKeyConstraintName: "webhook_endpoints_project_fkey",
    },
    { name: "project_id", referencedColumnName: "id" },
  ])
  project?: ProjectEntity;
}
