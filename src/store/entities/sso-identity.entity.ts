import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import { SsoConnectionEntity } from "./sso-connection.entity.js";
import { UserEntity } from "./user.entity.js";

/** An identity at an SSO provider, linked to a user of one project (migrations 1733100000000, 1734300000100). */
@Entity({ name: "sso_identities" })
@Unique("sso_identities_id_key", ["id"])
@Index("sso_identities_user_idx", ["projectId", "userId", "linkedAt"])
export class SsoIdentityEntity {
  /** `idn_…`: what a user names to unlink it (the key stays the provider's issuer and subject). */
  @Column({ type: "text" })
  id!: string;

  @PrimaryColumn({ name: "project_id", type: "text" })
  projectId!: string;

  @PrimaryColumn({ type: "text" })
  issuer!: string;

  @PrimaryColumn({ type: "text" })
  subject!: string;

  @Column({ name: "user_id", type: "text" })
  userId!: string;

  @Column({ name: "connection_id", type: "text" })
  connectionId!: string;

  @Column({ type: "text", default: "" })
  email!: string;

  @Column({ name: "linked_at", type: "timestamptz" })
  linkedAt!: Date;

  @ManyToOne(() => UserEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "project_id", referencedColumnName: "projectId", foreignKeyConstraintName: "sso_identities_user_fkey" },
    { name: "user_id", referencedColumnName: "id" },
  ])
  user?: UserEntity;

  @ManyToOne(() => SsoConnectionEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "connection_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "sso_identities_connection_id_fkey",
  })
  connection?: SsoConnectionEntity;
}
