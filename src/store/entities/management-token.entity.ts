import { Column, Entity, PrimaryColumn } from "typeorm";

@Entity({ name: "management_tokens" })
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

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;
}
