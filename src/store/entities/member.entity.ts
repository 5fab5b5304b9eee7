import { Column, Entity, PrimaryColumn } from "typeorm";
import type { MemberRole } from "../../domain/account.js";

@Entity({ name: "members" })
export class MemberEntity {
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

  @Column({ name: "password_hash", type: "text" })
  passwordHash!: string;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;
}
