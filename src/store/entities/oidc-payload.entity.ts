import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { OAuthClientEntity } from "./oauth-client.entity.js";
import { ProjectEntity } from "./project.entity.js";
import { UserEntity } from "./user.entity.js";

/** One stored model of the OpenID Provider's engine: a code, token, grant, session… (migration 1734100000000). */
@Entity({ name: "oidc_payloads" })
@Index("oidc_payloads_grant_idx", ["projectId", "grantId"], { where: "grant_id IS NOT NULL" })
@Index("oidc_payloads_user_code_idx", ["projectId", "userCode"], { where: "user_code IS NOT NULL" })
@Index("oidc_payloads_uid_idx", ["projectId", "uid"], { where: "uid IS NOT NULL" })
@Index("oidc_payloads_account_client_idx", ["projectId", "accountId", "clientId"], { where: "account_id IS NOT NULL" })
@Index("oidc_payloads_client_idx", ["projectId", "clientId"], { where: "client_id IS NOT NULL" })
@Index("oidc_payloads_expires_idx", ["expiresAt"])
export class OidcPayloadEntity {
  @PrimaryColumn({ type: "text", primaryKeyConstraintName: "oidc_payloads_pkey" })
  model!: string;

  @PrimaryColumn({ type: "text", primaryKeyConstraintName: "oidc_payloads_pkey" })
  id!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ type: "jsonb" })
  payload!: Record<string, unknown>;

  @Column({ name: "grant_id", type: "text", nullable: true })
  grantId!: string | null;

  @Column({ name: "user_code", type: "text", nullable: true })
  userCode!: string | null;

  @Column({ type: "text", nullable: true })
  uid!: string | null;

  @Column({ name: "client_id", type: "text", nullable: true })
  clientId!: string | null;

  @Column({ name: "account_id", type: "text", nullable: true })
  accountId!: string | null;

  /** The Gatehouse session a code or token came from. */
  @Column({ name: "session_id", type: "text", nullable: true })
  sessionId!: string | null;

  @Column({ name: "expires_at", type: "timestamptz", nullable: true })
  expiresAt!: Date | null;

  @Column({ name: "consumed_at", type: "timestamptz", nullable: true })
  consumedAt!: Date | null;

  @ManyToOne(() => ProjectEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "project_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "oidc_payloads_project_id_fkey",
  })
  project?: ProjectEntity;

  @ManyToOne(() => OAuthClientEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "project_id", referencedColumnName: "projectId", foreignKeyConstraintName: "oidc_payloads_client_fkey" },
    { name: "client_id", referencedColumnName: "id" },
  ])
  client?: OAuthClientEntity;

  @ManyToOne(() => UserEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "project_id", referencedColumnName: "projectId", foreignKeyConstraintName: "oidc_payloads_user_fkey" },
    { name: "account_id", referencedColumnName: "id" },
  ])
  user?: UserEntity;
}
