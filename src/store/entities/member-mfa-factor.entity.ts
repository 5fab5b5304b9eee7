import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import { MemberIdentityEntity } from "./member-identity.entity.js";

/** A member identity's TOTP factor; `confirmedAt` null is a pending enrollment (migration 1734400046000). */
@Entity({ name: "member_mfa_factors" })
@Unique("member_mfa_factors_identity_method_key", ["identityId", "method"])
@Check("member_mfa_factors_method_check", `method IN ('totp')`)
export class MemberMfaFactorEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "identity_id", type: "text" })
  identityId!: string;

  @Column({ type: "text" })
  method!: "totp";

  /** The base32 seed, sealed with the secret box (associated data: the factor id). */
  @Column({ name: "secret_sealed", type: "text" })
  secretSealed!: string;

  @Column({ name: "confirmed_at", type: "timestamptz", nullable: true })
  confirmedAt!: Date | null;

  /** The last TOTP time step accepted (int8: the driver answers text). */
  @Column({ name: "last_step", type: "bigint", nullable: true })
  lastStep!: string | null;

  @Column({ type: "integer", default: 0 })
  attempts!: number;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @ManyToOne(() => MemberIdentityEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "identity_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "member_mfa_factors_identity_fkey",
  })
  identity?: MemberIdentityEntity;
}
