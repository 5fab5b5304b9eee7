import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { SsoConnectionEntity } from "./sso-connection.entity.js";
import { UserEntity } from "./user.entity.js";

/** An identity at an SSO provider, linked to a user of one project (migration 1733100000000). */
@Entity({ name: "sso_identities" })
@Index("sso_identities_user_idx", ["projectId", "userId", "linkedAt"])
export class SsoIdentityEntity {
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
