import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { ProjectEntity } from "./project.entity.js";

/** A project's OpenID Connect provider (migrations 1732700000002, 1733100000000; repositories/sso-connections.ts). */
@Entity({ name: "sso_connections" })
@Check("sso_connections_provider_check", `provider IN ('oidc', 'google', 'gitlab', 'github', 'generic_oauth2')`)
// (organization_id, project_id, created_at DESC, id DESC): the keyset listing; TypeORM cannot state DESC keys.
@Index("sso_connections_project_created_idx", { synchronize: false })
export class SsoConnectionEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ type: "text" })
  name!: string;

  @Column({ type: "text", default: "oidc" })
  provider!: "oidc" | "google" | "gitlab" | "github" | "generic_oauth2";

  @Column({ type: "text" })
  issuer!: string;

  @Column({ name: "authorization_url", type: "text", default: "" })
  authorizationUrl!: string;

  @Column({ name: "token_url", type: "text", default: "" })
  tokenUrl!: string;

  @Column({ name: "userinfo_url", type: "text", default: "" })
  userinfoUrl!: string;

  /** `google`: the Workspace domain accounts must belong to; empty for any. */
  @Column({ name: "hosted_domain", type: "text", default: "" })
  hostedDomain!: string;

  /** `generic_oauth2`: userinfo field names (domain/sso.ts ClaimMapping). */
  @Column({ name: "claim_mapping", type: "jsonb", default: () => "'{}'" })
  claimMapping!: Record<string, string>;

  @Column({ name: "client_id", type: "text" })
  clientId!: string;

  /** SecretBox output, sealed with the row id as associated data. */
  @Column({ name: "client_secret_sealed", type: "text" })
  clientSecretSealed!: string;

  @Column({ type: "text", array: true })
  scopes!: string[];

  @Column({ name: "trust_emails", type: "boolean", default: false })
  trustEmails!: boolean;

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;

  // Composite, so a connection can only name a project of its own organization.
  @ManyToOne(() => ProjectEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    {
      name: "organization_id",
      referencedColumnName: "organizationId",
      foreignKeyConstraintName: "sso_connections_project_fkey",
    },
    { name: "project_id", referencedColumnName: "id" },
  ])
  project?: ProjectEntity;
}
