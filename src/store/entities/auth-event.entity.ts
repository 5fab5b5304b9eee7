import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from "typeorm";
import type { AuthEventKind, AuthMethod } from "../../domain/usage.js";
import { OrganizationEntity } from "./organization.entity.js";

/** Append-only; read only in aggregate (repositories/auth-events.ts). */
@Entity({ name: "auth_events" })
@Check("auth_events_kind_check", `kind IN ('signup', 'login', 'refresh')`)
@Check("auth_events_method_check", `method IN ('password', 'otp', 'magic_link', 'sso', 'mfa', 'refresh', 'passkey')`)
@Check("auth_events_tokens_issued_check", `tokens_issued >= 0`)
// Both INCLUDE (user_id, kind, method, tokens_issued) so the usage count is an index-only scan,
// which TypeORM cannot state: the migration builds them on (organization_id, project_id,
// occurred_at) and (organization_id, occurred_at).
@Index("auth_events_project_time_idx", { synchronize: false })
@Index("auth_events_org_time_idx", { synchronize: false })
export class AuthEventEntity {
  @PrimaryGeneratedColumn({ type: "bigint" })
  id!: string;

  @Column({ name: "organization_id", type: "text", collation: "C" })
  organizationId!: string;

  @Column({ name: "project_id", type: "text", collation: "C" })
  projectId!: string;

  @Column({ name: "user_id", type: "text", collation: "C" })
  userId!: string;

  @Column({ type: "text" })
  kind!: AuthEventKind;

  @Column({ type: "text" })
  method!: AuthMethod;

  @Column({ name: "tokens_issued", type: "smallint", default: 1 })
  tokensIssued!: number;

  @Column({ name: "occurred_at", type: "timestamptz", default: () => "now()" })
  occurredAt!: Date;

  @ManyToOne(() => OrganizationEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "organization_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "auth_events_organization_id_fkey",
  })
  organization?: OrganizationEntity;
}
