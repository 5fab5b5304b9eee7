import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import { UserEntity } from "./user.entity.js";

/** One sign-in of a user (migrations 1732800000000, 1733600000030; repositories/sessions.ts, sign-ins.ts). */
@Entity({ name: "sessions" })
@Unique("sessions_project_id_id_key", ["projectId", "id"])
// (project_id, user_id, created_at DESC): TypeORM cannot state DESC keys.
@Index("sessions_user_idx", { synchronize: false })
// (project_id, user_id, created_at DESC, id DESC) WHERE revoked_at IS NULL: a user's live
// sessions, newest first (the cap at sign-in, ListSessions); DESC keys again.
@Index("sessions_live_idx", { synchronize: false })
export class SessionEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ name: "user_id", type: "text" })
  userId!: string;

  @Column({ name: "ip_address", type: "text", default: "" })
  ipAddress!: string;

  @Column({ name: "user_agent", type: "text", default: "" })
  userAgent!: string;

  @Column({ type: "text", array: true, default: () => "'{}'" })
  amr!: string[];

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;

  @Column({ name: "last_active_at", type: "timestamptz", default: () => "now()" })
  lastActiveAt!: Date;

  @Column({ name: "expires_at", type: "timestamptz" })
  expiresAt!: Date;

  @Column({ name: "revoked_at", type: "timestamptz", nullable: true })
  revokedAt!: Date | null;

  @ManyToOne(() => UserEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "project_id", referencedColumnName: "projectId", foreignKeyConstraintName: "sessions_user_fkey" },
    { name: "user_id", referencedColumnName: "id", foreignKeyConstraintName: "sessions_user_fkey" },
  ])
  user?: UserEntity;
}
