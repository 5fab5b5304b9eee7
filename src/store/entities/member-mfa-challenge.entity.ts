import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { MemberEntity } from "./member.entity.js";
import { MemberIdentityEntity } from "./member-identity.entity.js";

/** A member's `mfa_token`: a sign-in held at its second factor, or at enrollment (migration 1734400046000). */
@Entity({ name: "member_mfa_challenges" })
@Check("member_mfa_challenges_purpose_check", `purpose IN ('verify', 'enroll')`)
@Index("member_mfa_challenges_member_idx", ["organizationId", "memberId"])
export class MemberMfaChallengeEntity {
  /** SHA-256 of the token. */
  @PrimaryColumn({ name: "token_hash", type: "text" })
  tokenHash!: string;

  @Column({ name: "identity_id", type: "text" })
  identityId!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "member_id", type: "text" })
  memberId!: string;

  @Column({ type: "text" })
  purpose!: "verify" | "enroll";

  @Column({ type: "integer", default: 0 })
  attempts!: number;

  @Column({ name: "expires_at", type: "timestamptz" })
  expiresAt!: Date;

  @Column({ name: "consumed_at", type: "timestamptz", nullable: true })
  consumedAt!: Date | null;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @ManyToOne(() => MemberEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    {
      name: "organization_id",
      referencedColumnName: "organizationId",
      foreignKeyConstraintName: "member_mfa_challenges_member_fkey",
    },
    { name: "member_id", referencedColumnName: "id" },
  ])
  member?: MemberEntity;

  @ManyToOne(() => MemberIdentityEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "identity_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "member_mfa_challenges_identity_fkey",
  })
  identity?: MemberIdentityEntity;
}
