import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { ProjectEntity } from "./project.entity.js";

/** An access token's jti denied until the token expires (migration 1732800000000; repositories/revoked-access-tokens.ts). */
@Entity({ name: "revoked_access_tokens" })
export class RevokedAccessTokenEntity {
  @PrimaryColumn({ type: "text" })
  jti!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ name: "expires_at", type: "timestamptz" })
  expiresAt!: Date;

  @ManyToOne(() => ProjectEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "project_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "revoked_access_tokens_project_id_fkey",
  })
  project?: ProjectEntity;
}
