import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import { MemberIdentityEntity } from "./member-identity.entity.js";

/** A member's password reset link, as SHA-256; one per identity (migration 1733200000003; repositories/member-password-resets.ts). */
@Entity({ name: "member_password_resets" })
@Unique("member_password_resets_token_hash_key", ["tokenHash"])
@Unique("member_password_resets_identity_key", ["identityId"])
export class MemberPasswordResetEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "identity_id", type: "text" })
  identityId!: string;

  @Column({ name: "token_hash", type: "text" })
  tokenHash!: string;

  @Column({ name: "expires_at", type: "timestamptz" })
  expiresAt!: Date;

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;

  @ManyToOne(() => MemberIdentityEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "identity_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "member_password_resets_identity_id_fkey",
  })
  identity?: MemberIdentityEntity;
}
