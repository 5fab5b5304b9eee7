import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import type { SsoProvider } from "../../domain/sso.js";
import { ProjectEntity } from "./project.entity.js";

/**
 * A project's identity provider (migrations 1732700000002, 1733100000000, 1734200000000,
 * 1734200000001, 1734300000000; repositories/sso-connections.ts).
 */
@Entity({ name: "sso_connections" })
@Check(
  "sso_connections_provider_check",
  `provider IN ('oidc', 'google', 'gitlab', 'github', 'apple', 'microsoft', 'generic_oauth2')`,
)
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
  provider!: SsoProvider;

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

  /** `microsoft`: the tenants (lower-case GUIDs) whose accounts may sign in; empty for any. */
  @Column({ name: "allowed_tenants", type: "text", array: true, default: () => "'{}'" })
  allowedTenants!: string[];

  /** `apple`: the Apple Developer team id. */
  @Column({ name: "team_id", type: "text", default: "" })
  teamId!: string;

  /** `apple`: the id of the Sign in with Apple key. */
  @Column({ name: "key_id", type: "text", default: "" })
  keyId!: string;

  /** `apple`: the key's PEM, SecretBox output sealed with `${id}:private_key`; null for other kinds. */
  @Column({ name: "private_key_sealed", type: "text", nullable: true })
  privateKeySealed!: string | null;

  /** The button's place on the hosted sign-in page: lower first, then oldest first. */
  @Column({ type: "integer", default: 0 })
  position!: number;

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
