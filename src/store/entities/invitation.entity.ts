import { Column, Entity, PrimaryColumn } from "typeorm";
import type { MemberRole } from "../../domain/account.js";

@Entity({ name: "invitations" })
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

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;
}
