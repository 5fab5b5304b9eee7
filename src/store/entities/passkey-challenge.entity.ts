import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { ProjectEntity } from "./project.entity.js";
import { UserEntity } from "./user.entity.js";

/** One WebAuthn ceremony's challenge, spent by its first finish (migration 1734000000000). */
@Entity({ name: "passkey_challenges" })
@Check("passkey_challenges_purpose_check", `purpose IN ('registration', 'sign_in')`)
@Index("passkey_challenges_expires_idx", ["expiresAt"])
export class PasskeyChallengeEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ name: "user_id", type: "text", nullable: true })
  userId!: string | null;

  @Column({ type: "text" })
  purpose!: "registration" | "sign_in";

  @Column({ name: "challenge_hash", type: "text" })
  challengeHash!: string;

  @Column({ name: "rp_id", type: "text" })
  rpId!: string;

  @Column({ type: "text", array: true })
  origins!: string[];

  /** An email-first sign-in's user, '' for none: no foreign key (migration 1734300000460). */
  @Column({ name: "named_user_id", type: "text", nullable: true })
  namedUserId!: string | null;

  @Column({ name: "mfa_token_hash", type: "text", nullable: true })
  mfaTokenHash!: string | null;

  @Column({ name: "expires_at", type: "timestamptz" })
  expiresAt!: Date;

  @Column({ name: "used_at", type: "timestamptz", nullable: true })
  usedAt!: Date | null;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @ManyToOne(() => ProjectEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "project_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "passkey_challenges_project_id_fkey",
  })
  project?: ProjectEntity;

  @ManyToOne(() => UserEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "project_id", referencedColumnName: "projectId", foreignKeyConstraintName: "passkey_challenges_user_fkey" },
    { name: "user_id", referencedColumnName: "id" },
  ])
  user?: UserEntity;
}
