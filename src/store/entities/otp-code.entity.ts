import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import type { OtpChannel } from "../repositories/otp-codes.js";
import { ProjectEntity } from "./project.entity.js";

/** One live sign-in code per destination (migration 1733000000000; repositories/otp-codes.ts). */
@Entity({ name: "otp_codes" })
@Check("otp_codes_channel_check", `channel IN ('email', 'sms')`)
export class OtpCodeEntity {
  @PrimaryColumn({ name: "project_id", type: "text" })
  projectId!: string;

  @PrimaryColumn({ type: "text" })
  channel!: OtpChannel;

  /** A normalized email or an E.164 number. */
  @PrimaryColumn({ type: "text" })
  destination!: string;

  @Column({ name: "code_hmac", type: "text" })
  codeHmac!: string;

  @Column({ type: "integer", default: 0 })
  attempts!: number;

  @Column({ name: "sent_at", type: "timestamptz" })
  sentAt!: Date;

  @Column({ name: "expires_at", type: "timestamptz" })
  expiresAt!: Date;

  @Column({ name: "consumed_at", type: "timestamptz", nullable: true })
  consumedAt!: Date | null;

  @ManyToOne(() => ProjectEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "project_id", referencedColumnName: "id", foreignKeyConstraintName: "otp_codes_project_id_fkey" })
  project?: ProjectEntity;
}
