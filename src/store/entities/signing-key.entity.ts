import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import type { JWK } from "jose";
import { ProjectEntity } from "./project.entity.js";

/** A project's token signing key, the private half sealed (migration 1732700000000; repositories/signing-keys.ts). */
@Entity({ name: "project_signing_keys" })
@Check("project_signing_keys_algorithm_check", `algorithm = 'ES256'::text`)
// (project_id, created_at DESC): the active key and the JWKS; TypeORM cannot state DESC keys.
@Index("project_signing_keys_project_idx", { synchronize: false })
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

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;

  @Column({ name: "retired_at", type: "timestamptz", nullable: true })
  retiredAt!: Date | null;

  // Composite, so a key can only name a project of its own organization.
  @ManyToOne(() => ProjectEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    {
      name: "organization_id",
      referencedColumnName: "organizationId",
      foreignKeyConstraintName: "project_signing_keys_project_fkey",
    },
    { name: "project_id", referencedColumnName: "id" },
  ])
  project?: ProjectEntity;
}
