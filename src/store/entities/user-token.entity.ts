import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import type { UserTokenKind } from "../repositories/user-tokens.js";
import { UserEntity } from "./user.entity.js";

/** A single-use link of a user, kept as SHA-256 (migrations 1732800000000, 1733200000001, 1733900000001; repositories/user-tokens.ts). */
@Entity({ name: "user_tokens" })
@Unique("user_tokens_token_hash_key", ["tokenHash"])
@Check("user_tokens_kind_check", `kind IN ('password_reset', 'email_verification', 'email_change', 'invitation')`)
@Index("user_tokens_user_idx", ["projectId", "userId", "kind"])
export class UserTokenEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ name: "user_id", type: "text" })
  userId!: string;

  @Column({ type: "text" })
  kind!: UserTokenKind;

  @Column({ name: "token_hash", type: "text" })
  tokenHash!: string;

  @Column({ type: "text" })
  email!: string;

  @Column({ name: "expires_at", type: "timestamptz" })
  expiresAt!: Date;

  @Column({ name: "consumed_at", type: "timestamptz", nullable: true })
  consumedAt!: Date | null;

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;

  @ManyToOne(() => UserEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "project_id", referencedColumnName: "projectId", foreignKeyConstraintName: "user_tokens_user_fkey" },
    { name: "user_id", referencedColumnName: "id", foreignKeyConstraintName: "user_tokens_user_fkey" },
  ])
  user?: UserEntity;
}
