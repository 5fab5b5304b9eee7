import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import { UserEntity } from "./user.entity.js";

/** A user's WebAuthn credential (migration 1734000000000). */
@Entity({ name: "passkeys" })
@Unique("passkeys_credential_key", ["projectId", "credentialId"])
@Index("passkeys_user_idx", ["projectId", "userId", "createdAt"])
export class PasskeyEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ name: "user_id", type: "text" })
  userId!: string;

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

  @Column({ type: "text", nullable: true })
  aaguid!: string | null;

  @Column({ type: "text" })
  name!: string;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @Column({ name: "last_used_at", type: "timestamptz", nullable: true })
  lastUsedAt!: Date | null;

  @ManyToOne(() => UserEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "project_id", referencedColumnName: "projectId", foreignKeyConstraintName: "passkeys_user_fkey" },
    { name: "user_id", referencedColumnName: "id" },
  ])
  user?: UserEntity;
}
