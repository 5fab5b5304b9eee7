import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import type { AuditActorType } from "../../domain/audit.js";
import { OrganizationEntity } from "./organization.entity.js";

/** One security-relevant event (migration 1733300000001; repositories/audit-events.ts). */
@Entity({ name: "audit_events" })
@Check("audit_events_actor_type_check", `actor_type IN ('user', 'member', 'api_key', 'operator', 'anonymous')`)
// The list's keysets are newest first (created_at DESC, id DESC), which TypeORM cannot state:
// the migration builds them on (organization_id[, project_id | user_id], created_at DESC, id DESC).
@Index("audit_events_org_idx", { synchronize: false })
@Index("audit_events_project_idx", { synchronize: false })
@Index("audit_events_user_idx", { synchronize: false })
@Index("audit_events_created_idx", ["createdAt", "id"])
export class AuditEventEntity {
  @PrimaryColumn({ type: "text", collation: "C" })
  id!: string;

  @Column({ name: "organization_id", type: "text", collation: "C" })
  organizationId!: string;

  @Column({ name: "project_id", type: "text", collation: "C", nullable: true })
  projectId!: string | null;

  @Column({ type: "text" })
  type!: string;

  @Column({ name: "user_id", type: "text", collation: "C", nullable: true })
  userId!: string | null;

  @Column({ name: "actor_type", type: "text" })
  actorType!: AuditActorType;

  @Column({ name: "actor_id", type: "text", collation: "C" })
  actorId!: string;

  @Column({ name: "target_id", type: "text", collation: "C", nullable: true })
  targetId!: string | null;

  @Column({ name: "ip_address", type: "text", nullable: true })
  ipAddress!: string | null;

  @Column({ name: "user_agent", type: "text", nullable: true })
  userAgent!: string | null;

  @Column({ type: "text", nullable: true })
  reason!: string | null;

  @Column({ name: "email_hash", type: "text", nullable: true })
  emailHash!: string | null;

  @Column({ type: "jsonb", default: () => "'{}'" })
  details!: Record<string, unknown>;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @ManyToOne(() => OrganizationEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "organization_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "audit_events_organization_id_fkey",
  })
  organization?: OrganizationEntity;
}
