import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import { ProjectEntity } from "./project.entity.js";

/** An OAuth client of a project's OpenID Provider (migrations 1734100000000, 1734300004600; repositories/oauth-clients.ts). */
@Entity({ name: "oauth_clients" })
@Check("oauth_clients_type_check", `type IN ('confidential', 'public')`)
@Check("oauth_clients_secret_check", `(type = 'confidential') = (secret_hash IS NOT NULL)`)
@Check("oauth_clients_pkce_check", `type = 'confidential' OR NOT allow_missing_pkce`)
@Unique("oauth_clients_project_key", ["projectId", "id"])
// (organization_id, project_id, created_at DESC, id DESC): the keyset listing; TypeORM cannot state DESC keys.
@Index("oauth_clients_project_created_idx", { synchronize: false })
export class OAuthClientEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ type: "text" })
  name!: string;

  @Column({ type: "text" })
  type!: "confidential" | "public";

  /** SHA-256 of the secret; null for a public client. */
  @Column({ name: "secret_hash", type: "text", nullable: true })
  secretHash!: string | null;

  @Column({ name: "secret_hint", type: "text", nullable: true })
  secretHint!: string | null;

  @Column({ name: "redirect_uris", type: "text", array: true, default: () => "'{}'" })
  redirectUris!: string[];

  @Column({ name: "post_logout_redirect_uris", type: "text", array: true, default: () => "'{}'" })
  postLogoutRedirectUris!: string[];

  @Column({ name: "grant_types", type: "text", array: true })
  grantTypes!: string[];

  @Column({ type: "text", array: true })
  scopes!: string[];

  @Column({ name: "first_party", type: "boolean", default: false })
  firstParty!: boolean;

  @Column({ name: "logo_uri", type: "text", default: "" })
  logoUri!: string;

  /** A confidential client exempt from PKCE (migration 1734300004600). */
  @Column({ name: "allow_missing_pkce", type: "boolean", default: false })
  allowMissingPkce!: boolean;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @Column({ name: "updated_at", type: "timestamptz" })
  updatedAt!: Date;

  // Composite, so a client can only name a project of its own organization.
  @ManyToOne(() => ProjectEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    {
      name: "organization_id",
      referencedColumnName: "organizationId",
      foreignKeyConstraintName: "oauth_clients_project_fkey",
    },
    { name: "project_id", referencedColumnName: "id" },
  ])
  project?: ProjectEntity;
}
