import { Column, Entity, PrimaryColumn } from "typeorm";

/** The Account side's tenant (migration 1732600000000; repositories/organizations.ts). */
@Entity({ name: "organizations" })
export class OrganizationEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ type: "text" })
  name!: string;

  /** Every member signs in with a second factor (migration 1734400046000). */
  @Column({ name: "require_member_mfa", type: "boolean", default: false })
  requireMemberMfa!: boolean;

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;
}
