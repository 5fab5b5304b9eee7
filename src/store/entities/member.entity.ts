import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import type { MemberRole } from "../../domain/account.js";
import { MemberIdentityEntity } from "./member-identity.entity.js";
import { OrganizationEntity } from "./organization.entity.js";

/**
 * A membership: one identity's role in one organization. Email and password live on the
 * identity (migrations 1732600000000, 1733200000003; repositories/members.ts).
 */
@Entity({ name: "members" })
@Unique("members_organization_id_id_key", ["organizationId", "id"])
@Unique("members_organization_identity_key", ["organizationId", "identityId"])
@Check("members_role_check", `role = ANY (ARRAY['admin'::text, 'developer'::text])`)
@Index("members_identity_idx", ["identityId"])
// (organization_id, created_at DESC, id DESC): the keyset listing; TypeORM cannot state DESC keys.
@Index("members_org_created_idx", { synchronize: false })
export class MemberEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "identity_id", type: "text" })
  identityId!: string;

  @Column({ type: "text" })
  role!: MemberRole;

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;

  @ManyToOne(() => OrganizationEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "organization_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "members_organization_id_fkey",
  })
  organization?: OrganizationEntity;

  @ManyToOne(() => MemberIdentityEntity)
  @JoinColumn({ name: "identity_id", referencedColumnName: "id", foreignKeyConstraintName: "members_identity_fkey" })
  identity?: MemberIdentityEntity;
}
