import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { ProjectEntity } from "./project.entity.js";
import { SsoConnectionEntity } from "./sso-connection.entity.js";

/** A one-minute code of the SSO code handover (migration 1733100000000). */
@Entity({ name: "sso_handovers" })
export class SsoHandoverEntity {
  /** SHA-256 of the code. */
  @PrimaryColumn({ name: "code_hash", type: "text" })
  codeHash!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ name: "connection_id", type: "text" })
  connectionId!: string;

  @Column({ name: "code_challenge", type: "text" })
  codeChallenge!: string;

  @Column({ type: "text" })
  issuer!: string;

  @Column({ type: "text" })
  subject!: string;

  @Column({ type: "text" })
  email!: string;

  /** What a new user starts with (Apple's name, told once), sealed with the code hash. */
  @Column({ name: "new_user_metadata_sealed", type: "text", nullable: true })
  newUserMetadataSealed!: string | null;

  @Column({ name: "expires_at", type: "timestamptz" })
  expiresAt!: Date;

  @Column({ name: "consumed_at", type: "timestamptz", nullable: true })
  consumedAt!: Date | null;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @ManyToOne(() => ProjectEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "project_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "sso_handovers_project_id_fkey",
  })
  project?: ProjectEntity;

  @ManyToOne(() => SsoConnectionEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "connection_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "sso_handovers_connection_id_fkey",
  })
  connection?: SsoConnectionEntity;
}
