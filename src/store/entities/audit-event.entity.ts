import { Column, Entity, PrimaryColumn } from "typeorm";
import type { AuditActorType } from "../../domain/audit.js";

/** One security-relevant event (migration 1733300000001; repositories/audit-events.ts). */
@Entity({ name: "audit_events" })
export class AuditEventEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "project_id", type: "text", nullable: true })
  projectId!: string | null;

  @Column({ type: "text" })
  type!: string;

  @Column({ name: "user_id", type: "text", nullable: true })
  userId!: string | null;

  @Column({ name: "actor_type", type: "text" })
  actorType!: AuditActorType;

  @Column({ name: "actor_id", type: "text" })
  actorId!: string;

  @Column({ name: "target_id", type: "text", nullable: true })
  targetId!: string | null;

  @Column({ name: "ip_address", type: "text", nullable: true })
  ipAddress!: string | null;

  @Column({ name: "user_agent", type: "text", nullable: true })
  userAgent!: string | null;

  @Column({ type: "text", nullable: true })
  reason!: string | null;

  @Column({ name: "email_hash", type: "text", nullable: true })
  emailHash!: string | null;

  @Column({ type: "jsonb" })
  details!: Record<string, unknown>;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;
}
