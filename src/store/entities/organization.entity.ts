import { Column, Entity, PrimaryColumn } from "typeorm";

@Entity({ name: "organizations" })
export class OrganizationEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ type: "text" })
  name!: string;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;
}
