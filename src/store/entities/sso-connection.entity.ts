import { Column, Entity, PrimaryColumn } from "typeorm";

@Entity({ name: "sso_connections" })
export class SsoConnectionEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ type: "text" })
  name!: string;

  @Column({ type: "text" })
  issuer!: string;

  @Column({ name: "client_id", type: "text" })
  clientId!: string;

  /** SecretBox output, sealed with the row id as associated data. */
  @Column({ name: "client_secret_sealed", type: "text" })
  clientSecretSealed!: string;

  @Column({ type: "text", array: true })
  scopes!: string[];

  @Column({ name: "trust_emails", type: "boolean" })
  trustEmails!: boolean;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;
}
