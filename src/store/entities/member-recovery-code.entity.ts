import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { MemberIdentityEntity } from "./member-identity.entity.js";

/** A member identity's single-use recovery code, as an HMAC (migration 1734400046000). */
@Entity({ name: "member_recovery_codes" })
export class MemberRecoveryCodeEntity {
  @PrimaryColumn({ name: "identity_id", type: "text", primaryKeyConstraintName: "member_recovery_codes_pkey" })
  identityId!: string;

  @PrimaryColumn({ name: "code_hmac", type: "text", primaryKeyConstraintName: "member_recovery_codes_pkey" })
  codeHmac!: string;

  @Column({ name: "used_at", type: "timestamptz", nullable: true })
  usedAt!: Date | null;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @ManyToOne(() => MemberIdentityEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "identity_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "member_recovery_codes_identity_fkey",
  })
  identity?: MemberIdentityEntity;
}
