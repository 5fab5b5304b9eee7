import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import { MemberIdentityEntity } from "./member-identity.entity.js";

/** A member identity's WebAuthn credential, a second factor (migration 1734400046000). */
@Entity({ name: "member_passkeys" })
@Unique("member_passkeys_credential_key", ["credentialId"])
@Index("member_passkeys_identity_idx", ["identityId", "createdAt"])
export class MemberPasskeyEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "identity_id", type: "text" })
  identityId!: string;

  /** base64url, as the browser names it. */
  @Column({ name: "credential_id", type: "text" })
  credentialId!: string;

  /** The COSE public key, base64url. */
  @Column({ name: "public_key", type: "text" })
  publicKey!: string;

  /** int8: the driver answers text. */
  @Column({ type: "bigint", default: 0 })
  counter!: string;

  @Column({ type: "text", array: true, default: () => "'{}'" })
  transports!: string[];

  @Column({ name: "backup_eligible", type: "boolean" })
  backupEligible!: boolean;

  @Column({ name: "backed_up", type: "boolean" })
  backedUp!: boolean;

  @Column({ type: "text" })
  name!: string;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @Column({ name: "last_used_at", type: "timestamptz", nullable: true })
  lastUsedAt!: Date | null;

  @ManyToOne(() => MemberIdentityEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "identity_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "member_passkeys_identity_fkey",
  })
  identity?: MemberIdentityEntity;
}
