import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import { ProjectEntity } from "./project.entity.js";

/** One live sign-in link per email; a pending signup rides on it (migrations 1733000000000, 1733600000002). */
@Entity({ name: "magic_links" })
@Unique("magic_links_token_hash_key", ["tokenHash"])
export class MagicLinkEntity {
  @PrimaryColumn({ name: "project_id", type: "text" })
  projectId!: string;

  @PrimaryColumn({ name: "email_normalized", type: "text" })
  emailNormalized!: string;

  @Column({ type: "text" })
  email!: string;

  /** SHA-256 of the link's token. */
  @Column({ name: "token_hash", type: "text" })
  tokenHash!: string;

  @Column({ name: "sent_at", type: "timestamptz" })
  sentAt!: Date;

  @Column({ name: "expires_at", type: "timestamptz" })
  expiresAt!: Date;

  @Column({ name: "consumed_at", type: "timestamptz", nullable: true })
  consumedAt!: Date | null;

  @Column({ name: "signup_password_hash", type: "text", nullable: true })
  signupPasswordHash!: string | null;

  @Column({ name: "signup_metadata", type: "jsonb", nullable: true })
  signupMetadata!: Record<string, unknown> | null;

  /** The pending signup's locale ("" for none); null when the link is no signup (migration 1734300000200). */
  @Column({ name: "signup_locale", type: "text", nullable: true })
  signupLocale!: string | null;

  @ManyToOne(() => ProjectEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "project_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "magic_links_project_id_fkey",
  })
  project?: ProjectEntity;
}
