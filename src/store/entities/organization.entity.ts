import { Column, Entity, PrimaryColumn } from "typeorm";

/** The Account side's tenant (migration 1732600000000; repositories/organizations.ts). */
@Entity({ name: "organizations" })
export class OrganizationEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ type: "text" })
  name!: string;

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;
}
