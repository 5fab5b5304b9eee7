import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import type { MfaChallenge } from "../../domain/mfa.js";
import { UserEntity } from "./user.entity.js";

/** An `mfa_token`: a sign-in held at its second factor, or at enrollment (migration 1733000000000). */
@Entity({ name: "mfa_challenges" })
@Check("mfa_challenges_purpose_check", `purpose IN ('verify', 'enroll')`)
@Index("mfa_challenges_user_idx", ["projectId", "userId"])
export class MfaChallengeEntity {
  /** SHA-256 of the token. */
  @PrimaryColumn({ name: "token_hash", type: "text" })
  tokenHash!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ name: "user_id", type: "text" })
  userId!: string;

  @Column({ type: "text" })
  purpose!: MfaChallenge["purpose"];

  @Column({ type: "text", array: true })
  amr!: string[];

  @Column({ type: "text" })
  method!: MfaChallenge["method"];

  @Column({ name: "sms_code_hmac", type: "text", nullable: true })
  smsCodeHmac!: string | null;

  @Column({ type: "integer", default: 0 })
  attempts!: number;

  /** The passkey that proved the first factor (it cannot be the second). */
  @Column({ name: "passkey_id", type: "text", nullable: true })
  passkeyId!: string | null;

  @Column({ name: "expires_at", type: "timestamptz" })
  expiresAt!: Date;

  @Column({ name: "consumed_at", type: "timestamptz", nullable: true })
  consumedAt!: Date | null;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @ManyToOne(() => UserEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "project_id", referencedColumnName: "projectId", foreignKeyConstraintName: "mfa_challenges_user_fkey" },
    { name: "user_id", referencedColumnName: "id" },
  ])
  user?: UserEntity;
}
