import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import { ProjectEntity } from "./project.entity.js";
import { SsoConnectionEntity } from "./sso-connection.entity.js";

/** One SsoAuthorize, used once by the callback (migration 1733100000000). */
@Entity({ name: "sso_flows" })
@Unique("sso_flows_id_key", ["id"])
export class SsoFlowEntity {
  /** SHA-256 of the OIDC state. */
  @PrimaryColumn({ name: "state_hash", type: "text" })
  stateHash!: string;

  @Column({ type: "text" })
  id!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ name: "connection_id", type: "text" })
  connectionId!: string;

  @Column({ name: "nonce_sealed", type: "text" })
  nonceSealed!: string;

  @Column({ name: "verifier_sealed", type: "text" })
  verifierSealed!: string;

  @Column({ name: "redirect_url", type: "text" })
  redirectUrl!: string;

  @Column({ name: "code_challenge", type: "text", nullable: true })
  codeChallenge!: string | null;

  @Column({ name: "expires_at", type: "timestamptz" })
  expiresAt!: Date;

  @Column({ name: "consumed_at", type: "timestamptz", nullable: true })
  consumedAt!: Date | null;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @ManyToOne(() => ProjectEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "project_id", referencedColumnName: "id", foreignKeyConstraintName: "sso_flows_project_id_fkey" })
  project?: ProjectEntity;

  @ManyToOne(() => SsoConnectionEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "connection_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "sso_flows_connection_id_fkey",
  })
  connection?: SsoConnectionEntity;
}
