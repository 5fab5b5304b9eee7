import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import type { ApiKeyKind } from "../../domain/account.js";
import { ProjectEntity } from "./project.entity.js";

/** A project's API key, as SHA-256 (migrations 1732700000000, 1733200000002; repositories/api-keys.ts). */
@Entity({ name: "api_keys" })
@Unique("api_keys_key_hash_key", ["keyHash"])
@Check("api_keys_kind_check", `kind = ANY (ARRAY['secret'::text, 'publishable'::text])`)
@Check(
  "api_keys_scopes_check",
  `scopes <@ ARRAY['auth:read'::text, 'auth:write'::text, 'users:read'::text, 'users:write'::text]`,
)
@Index("api_keys_project_idx", ["projectId"])
// (organization_id, created_at DESC, id DESC) and (organization_id, project_id, created_at DESC,
// id DESC): the keyset listings; TypeORM cannot state DESC keys.
@Index("api_keys_org_created_idx", { synchronize: false })
@Index("api_keys_org_project_created_idx", { synchronize: false })
export class ApiKeyEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ type: "text" })
  label!: string;

  @Column({ type: "text", default: "secret" })
  kind!: ApiKeyKind;

  @Column({ name: "key_hash", type: "text" })
  keyHash!: string;

  @Column({ name: "key_hint", type: "text" })
  keyHint!: string;

  @Column({ type: "text", array: true })
  scopes!: string[];

  @Column({ name: "expires_at", type: "timestamptz", nullable: true })
  expiresAt!: Date | null;

  @Column({ name: "revoked_at", type: "timestamptz", nullable: true })
  revokedAt!: Date | null;

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;

  // Composite, so a key can only name a project of its own organization.
  @ManyToOne(() => ProjectEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    {
      name: "organization_id",
      referencedColumnName: "organizationId",
      foreignKeyConstraintName: "api_keys_project_fkey",
    },
    { name: "project_id", referencedColumnName: "id" },
  ])
  project?: ProjectEntity;
}
