import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import { ProjectEntity } from "./project.entity.js";

/** An end user of one project (migrations 1732800000000, 1733000000000, 1733200000001; repositories/users.ts). */
@Entity({ name: "users" })
@Unique("users_project_email_key", ["projectId", "emailNormalized"])
@Unique("users_project_id_id_key", ["projectId", "id"])
@Check("users_email_or_phone_check", `email_normalized IS NOT NULL OR phone IS NOT NULL`)
@Check("users_new_email_check", `(new_email IS NULL) = (new_email_expires_at IS NULL)`)
@Index("users_project_phone_key", ["projectId", "phone"], { unique: true, where: "phone IS NOT NULL" })
// (project_id, created_at DESC, id DESC) INCLUDE (email_normalized): listing and the search walk
// read the index alone; TypeORM cannot state DESC keys or INCLUDE.
@Index("users_project_created_email_idx", { synchronize: false })
// GIN (email_normalized gin_trgm_ops): substring search; TypeORM cannot state an operator class.
@Index("users_email_trgm_idx", { synchronize: false })
export class UserEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ type: "text", nullable: true })
  email!: string | null;

  @Column({ name: "email_normalized", type: "text", nullable: true })
  emailNormalized!: string | null;

  @Column({ name: "password_hash", type: "text", nullable: true })
  passwordHash!: string | null;

  @Column({ name: "email_verified", type: "boolean", default: false })
  emailVerified!: boolean;

  @Column({ type: "text", nullable: true })
  phone!: string | null;

  @Column({ name: "phone_verified", type: "boolean", default: false })
  phoneVerified!: boolean;

  @Column({ type: "jsonb", default: () => "'{}'" })
  metadata!: Record<string, unknown>;

  @Column({ type: "boolean", default: false })
  disabled!: boolean;

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;

  @Column({ name: "updated_at", type: "timestamptz", default: () => "now()" })
  updatedAt!: Date;

  @Column({ name: "last_login_at", type: "timestamptz", nullable: true })
  lastLoginAt!: Date | null;

  @Column({ name: "mfa_methods", type: "text", array: true, default: () => "'{}'" })
  mfaMethods!: string[];

  @Column({ name: "app_metadata", type: "jsonb", default: () => "'{}'" })
  appMetadata!: Record<string, unknown>;

  @Column({ name: "new_email", type: "text", nullable: true })
  newEmail!: string | null;

  @Column({ name: "new_email_expires_at", type: "timestamptz", nullable: true })
  newEmailExpiresAt!: Date | null;

  /** "" when the user chose none (migration 1734300000200). */
  @Column({ type: "text", default: "" })
  locale!: string;

  @ManyToOne(() => ProjectEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "organization_id", referencedColumnName: "organizationId", foreignKeyConstraintName: "users_project_fkey" },
    { name: "project_id", referencedColumnName: "id", foreignKeyConstraintName: "users_project_fkey" },
  ])
  project?: ProjectEntity;
}
