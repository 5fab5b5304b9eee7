import { Column, Entity, PrimaryColumn, Unique } from "typeorm";

/**
 * Every login id ever issued, with its project: it outlives the project, so a login id is
 * never issued twice (migration 1732700000000; repositories/projects.ts).
 */
@Entity({ name: "issued_login_ids" })
// The target of projects_login_id_issued_fkey.
@Unique("issued_login_ids_login_id_project_id_key", ["loginId", "projectId"])
export class IssuedLoginIdEntity {
  @PrimaryColumn({ name: "login_id", type: "text" })
  loginId!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ name: "issued_at", type: "timestamptz", default: () => "now()" })
  issuedAt!: Date;
}
