import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { OAuthClientEntity } from "./oauth-client.entity.js";
import { UserEntity } from "./user.entity.js";

/** The scopes a user granted an OAuth client (migration 1734100000000). */
@Entity({ name: "oauth_consents" })
@Index("oauth_consents_client_idx", ["projectId", "clientId"])
export class OAuthConsentEntity {
  @PrimaryColumn({ name: "project_id", type: "text", primaryKeyConstraintName: "oauth_consents_pkey" })
  projectId!: string;

  @PrimaryColumn({ name: "user_id", type: "text", primaryKeyConstraintName: "oauth_consents_pkey" })
  userId!: string;

  @PrimaryColumn({ name: "client_id", type: "text", primaryKeyConstraintName: "oauth_consents_pkey" })
  clientId!: string;

  @Column({ type: "text", array: true })
  scopes!: string[];

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @Column({ name: "updated_at", type: "timestamptz" })
  updatedAt!: Date;

  @ManyToOne(() => UserEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "project_id", referencedColumnName: "projectId", foreignKeyConstraintName: "oauth_consents_user_fkey" },
    { name: "user_id", referencedColumnName: "id" },
  ])
  user?: UserEntity;

  @ManyToOne(() => OAuthClientEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "project_id", referencedColumnName: "projectId", foreignKeyConstraintName: "oauth_consents_client_fkey" },
    { name: "client_id", referencedColumnName: "id" },
  ])
  client?: OAuthClientEntity;
}
