import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import type { MfaMethod } from "../../domain/mfa.js";
import { UserEntity } from "./user.entity.js";

/** A user's factor of one method; `confirmedAt` null is a pending enrollment (migration 1733000000000). */
@Entity({ name: "mfa_factors" })
@Unique("mfa_factors_user_method_key", ["projectId", "userId", "method"])
@Check("mfa_factors_method_check", `method IN ('totp', 'sms')`)
export class MfaFactorEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ name: "user_id", type: "text" })
  userId!: string;

  @Column({ type: "text" })
  method!: MfaMethod;

  @Column({ name: "secret_sealed", type: "text", nullable: true })
  secretSealed!: string | null;

  @Column({ type: "text", nullable: true })
  phone!: string | null;

  @Column({ name: "confirmed_at", type: "timestamptz", nullable: true })
  confirmedAt!: Date | null;

  /** The last TOTP time step accepted (int8: the driver answers text). */
  @Column({ name: "last_step", type: "bigint", nullable: true })
  lastStep!: string | null;

  @Column({ name: "pending_code_hmac", type: "text", nullable: true })
  pendingCodeHmac!: string | null;

  @Column({ name: "pending_code_expires_at", type: "timestamptz", nullable: true })
  pendingCodeExpiresAt!: Date | null;

  @Column({ type: "integer", default: 0 })
  attempts!: number;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @ManyToOne(() => UserEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "project_id", referencedColumnName: "projectId", foreignKeyConstraintName: "mfa_factors_user_fkey" },
    { name: "user_id", referencedColumnName: "id" },
  ])
  user?: UserEntity;
}
