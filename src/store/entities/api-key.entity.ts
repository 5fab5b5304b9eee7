import { Column, Entity, PrimaryColumn } from "typeorm";
import type { ApiKeyKind } from "../../domain/account.js";

@Entity({ name: "api_keys" })
export class ApiKeyEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ type: "text" })
  label!: string;

  @Column({ type: "text" })
  kind!: ApiKeyKind;

  @Column({ name: "key_hash", type: "text" })
  keyHash!: string;

  @Column({ name: "key_hint", type: "text" })
  keyHint!: string;

  @Column({ type: "text", array: true })
  scopes!: string[];

  @Column({ name: "expires_at", type: "timestamptz", nullable: true })
  expiresAt!: Date | null;

  @Column({ name: "revoked_at", type: "timestamptz", nullable: true })
  revokedAt!: Date | null;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;
}
