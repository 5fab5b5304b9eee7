import { Column, Entity, PrimaryColumn } from "typeorm";
import type { JWK } from "jose";

@Entity({ name: "project_signing_keys" })
export class SigningKeyEntity {
  @PrimaryColumn({ type: "text" })
  kid!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ type: "text" })
  algorithm!: "ES256";

  @Column({ name: "public_jwk", type: "jsonb" })
  publicJwk!: JWK;

  @Column({ name: "private_jwk_sealed", type: "text" })
  privateJwkSealed!: string;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @Column({ name: "retired_at", type: "timestamptz", nullable: true })
  retiredAt!: Date | null;
}
