import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import type { FailurePolicy, HookKind } from "../../domain/hooks.js";
import { ProjectEntity } from "./project.entity.js";

/** A project's synchronous hook, at most one per kind (migration 1733900000000; repositories/hooks.ts). */
@Entity({ name: "hooks" })
@Check("hooks_kind_check", `kind IN ('before_user_created', 'custom_access_token')`)
@Check("hooks_failure_policy_check", `failure_policy IN ('closed', 'open')`)
export class HookEntity {
  @PrimaryColumn({ name: "project_id", type: "text" })
  projectId!: string;

  @PrimaryColumn({ type: "text" })
  kind!: HookKind;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ type: "text" })
  url!: string;

  @Column({ name: "failure_policy", type: "text" })
  failurePolicy!: FailurePolicy;

  /** SecretBox output, sealed with `${project_id}/${kind}` as associated data. */
  @Column({ name: "secret_sealed", type: "text" })
  secretSealed!: string;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @Column({ name: "updated_at", type: "timestamptz" })
  updatedAt!: Date;

  @ManyToOne(() => ProjectEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "organization_id", referencedColumnName: "organizationId", foreignKeyConstraintName: "hooks_project_fkey" },
    { name: "project_id", referencedColumnName: "id" },
  ])
  project?: ProjectEntity;
}
