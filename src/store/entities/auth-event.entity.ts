import { Column, Entity, PrimaryGeneratedColumn } from "typeorm";
import type { AuthEventKind, AuthMethod } from "../../domain/usage.js";

/** Append-only; read only in aggregate (repositories/auth-events.ts). */
@Entity({ name: "auth_events" })
export class AuthEventEntity {
  @PrimaryGeneratedColumn({ type: "bigint" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ name: "user_id", type: "text" })
  userId!: string;

  @Column({ type: "text" })
  kind!: AuthEventKind;

  @Column({ type: "text" })
  method!: AuthMethod;

  @Column({ name: "tokens_issued", type: "smallint" })
  tokensIssued!: number;

  @Column({ name: "occurred_at", type: "timestamptz" })
  occurredAt!: Date;
}
