import { Column, Entity, PrimaryColumn } from "typeorm";
import type { MemberRole } from "../../domain/account.js";

/** A membership: one identity's role in one organization. Email and password live on the identity. */
@Entity({ name: "members" })
export class MemberEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "identity_id", type: "text" })
  identityId!: string;

  @Column({ type: "text" })
  role!: MemberRole;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;
}
