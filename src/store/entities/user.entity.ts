import { Column, Entity, PrimaryColumn } from "typeorm";

// The columns of `users`; its keys, indexes and foreign keys are stated with the repository's
// conversion (issue 24). Other tables' relations to users refer to this class.
@Entity({ name: "users" })
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

  @Column({ type: "jsonb", default: () => "'{}'::jsonb" })
  metadata!: Record<string, unknown>;

  @Column({ type: "boolean", default: false })
  disabled!: boolean;

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;

  @Column({ name: "updated_at", type: "timestamptz", default: () => "now()" })
  updatedAt!: Date;

  @Column({ name: "last_login_at", type: "timestamptz", nullable: true })
  lastLoginAt!: Date | null;

  @Column({ name: "mfa_methods", type: "text", array: true, default: () => "'{}'::text[]" })
  mfaMethods!: string[];

  @Column({ name: "app_metadata", type: "jsonb", default: () => "'{}'::jsonb" })
  appMetadata!: Record<string, unknown>;

  @Column({ name: "new_email", type: "text", nullable: true })
  newEmail!: string | null;

  @Column({ name: "new_email_expires_at", type: "timestamptz", nullable: true })
  newEmailExpiresAt!: Date | null;
}
