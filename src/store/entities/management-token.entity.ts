import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import { MemberEntity } from "./member.entity.js";

/** A member's signed-in credential for the Account API, as SHA-256 (migration 1732600000000; repositories/management-tokens.ts). */
@Entity({ name: "management_tokens" })
@Unique("management_tokens_token_hash_key", ["tokenHash"])
@Index("management_tokens_member_idx", ["memberId"])
export class ManagementTokenEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "member_id", type: "text" })
  memberId!: string;

  @Column({ name: "token_hash", type: "text" })
  tokenHash!: string;

  @Column({ name: "expires_at", type: "timestamptz" })
  expiresAt!: Date;

  /** Issued after a second factor (migration 1734400046000): kept when the organization starts requiring one. */
  @Column({ name: "second_factor", type: "boolean", default: false })
  secondFactor!: boolean;

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;

  @ManyToOne(() => MemberEntity, { onDelete: "CASCADE" })
  // Composite, so a token can only name a member of its own organization; TypeORM takes the
  // constraint's name from the first join column.
  @JoinColumn([
    {
      name: "organization_id",
      referencedColumnName: "organizationId",
      foreignKeyConstraintName: "management_tokens_member_fkey",
    },
    { name: "member_id", referencedColumnName: "id" },
  ])
  member?: MemberEntity;
}
