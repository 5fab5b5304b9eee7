import { Check, Column, Entity, PrimaryGeneratedColumn } from "typeorm";

/** A stored address the email canonical-form migration left with its old key (migration 1733600000001). */
@Entity({ name: "email_canonical_conflicts" })
@Check("email_canonical_conflicts_reason_check", `reason IN ('refused', 'collision')`)
export class EmailCanonicalConflictEntity {
  /** int8: the driver answers text. */
  @PrimaryGeneratedColumn("identity", { type: "bigint", generatedIdentity: "ALWAYS" })
  id!: string;

  @Column({ name: "table_name", type: "text" })
  tableName!: string;

  @Column({ name: "row_id", type: "text" })
  rowId!: string;

  @Column({ name: "project_id", type: "text", nullable: true })
  projectId!: string | null;

  @Column({ name: "organization_id", type: "text", nullable: true })
  organizationId!: string | null;

  @Column({ type: "text" })
  email!: string;

  @Column({ type: "text", nullable: true })
  canonical!: string | null;

  @Column({ type: "text" })
  reason!: "refused" | "collision";

  @Column({ type: "text" })
  description!: string;

  @Column({ name: "found_at", type: "timestamptz", default: () => "now()" })
  foundAt!: Date;
}
