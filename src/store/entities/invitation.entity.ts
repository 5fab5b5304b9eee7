import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import type { MemberRole } from "../../domain/account.js";
import { MemberEntity } from "./member.entity.js";
import { OrganizationEntity } from "./organization.entity.js";

/** An invitation to join an organization, its link as SHA-256 (migrations 1732600000000, 1732700000001; repositories/invitations.ts). */
@Entity({ name: "invitations" })
@Unique("invitations_token_hash_key", ["tokenHash"])
@Check("invitations_role_check", `role = ANY (ARRAY['admin'::text, 'developer'::text])`)
@Index("invitations_org_email_idx", ["organizationId", "emailNormalized"])
// One pending invitation per email and organization: the target of replacePending's upsert.
@Index("invitations_pending_email_key", ["organizationId", "emailNormalized"], {
  unique: true,
  where: "accepted_at IS NULL",
})
export class InvitationEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ type: "text" })
  email!: string;

  @Column({ name: "email_normalized", type: "text" })
  emailNormalized!: string;

  @Column({ type: "text" })
  role!: MemberRole;

  @Column({ name: "token_hash", type: "text" })
  tokenHash!: string;

  @Column({ name: "invited_by", type: "text", nullable: true })
  invitedBy!: string | null;

  @Column({ name: "expires_at", type: "timestamptz" })
  expiresAt!: Date;

  @Column({ name: "accepted_at", type: "timestamptz", nullable: true })
  acceptedAt!: Date | null;

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;

  @ManyToOne(() => OrganizationEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "organization_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "invitations_organization_id_fkey",
  })
  organization?: OrganizationEntity;

  @ManyToOne(() => MemberEntity, { onDelete: "SET NULL" })
  @JoinColumn({
    name: "invited_by",
    referencedColumnName: "id",
    foreignKeyConstraintName: "invitations_invited_by_fkey",
  })
  inviter?: MemberEntity | null;
}
