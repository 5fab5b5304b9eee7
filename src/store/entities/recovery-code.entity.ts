import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { UserEntity } from "./user.entity.js";

/** A single-use recovery code, as an HMAC under a key derived from the server secret (migration 1733000000000). */
@Entity({ name: "recovery_codes" })
export class RecoveryCodeEntity {
  @PrimaryColumn({ name: "project_id", type: "text" })
  projectId!: string;

  @PrimaryColumn({ name: "user_id", type: "text" })
  userId!: string;

  @PrimaryColumn({ name: "code_hmac", type: "text" })
  codeHmac!: string;

  @Column({ name: "used_at", type: "timestamptz", nullable: true })
  usedAt!: Date | null;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @ManyToOne(() => UserEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "project_id", referencedColumnName: "projectId", foreignKeyConstraintName: "recovery_codes_user_fkey" },
    { name: "user_id", referencedColumnName: "id" },
  ])
  user?: UserEntity;
}
