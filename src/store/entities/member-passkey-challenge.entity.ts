import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { MemberIdentityEntity } from "./member-identity.entity.js";

/** One member passkey ceremony's challenge, spent by its first finish (migration 1734400046000). */
@Entity({ name: "member_passkey_challenges" })
@Check("member_passkey_challenges_purpose_check", `purpose IN ('registration', 'sign_in')`)
@Index("member_passkey_challenges_expires_idx", ["expiresAt"])
export class MemberPasskeyChallengeEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "identity_id", type: "text" })
  identityId!: string;

  @Column({ type: "text" })
  purpose!: "registration" | "sign_in";

  @Column({ name: "challenge_hash", type: "text" })
  challengeHash!: string;

  @Column({ name: "rp_id", type: "text" })
  rpId!: string;

  @Column({ type: "text", array: true })
  origins!: string[];

  @Column({ name: "mfa_token_hash", type: "text", nullable: true })
  mfaTokenHash!: string | null;

  @Column({ name: "expires_at", type: "timestamptz" })
  expiresAt!: Date;

  @Column({ name: "used_at", type: "timestamptz", nullable: true })
  usedAt!: Date | null;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @ManyToOne(() => MemberIdentityEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "identity_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "member_passkey_challenges_identity_fkey",
  })
  identity?: MemberIdentityEntity;
}
