import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import type { MessageKind } from "../../notify/message-templates/kinds.js";
import { ProjectEntity } from "./project.entity.js";

/** A project's own template of one message in one language (migration 1734300000300; repositories/message-templates.ts). */
@Entity({ name: "message_templates" })
@Check(
  "message_templates_kind_check",
  `kind IN ('email_verification', 'signup_confirmation', 'signup_notice', 'password_reset', 'email_otp', 'magic_link', 'user_invitation', 'email_change_confirm', 'email_change_notice', 'mfa_failures_notice', 'sms_otp', 'sms_mfa')`,
)
export class MessageTemplateEntity {
  @PrimaryColumn({ name: "project_id", type: "text" })
  projectId!: string;

  @PrimaryColumn({ type: "text" })
  kind!: MessageKind;

  /** Canonical BCP 47. */
  @PrimaryColumn({ type: "text" })
  locale!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ type: "text" })
  subject!: string;

  @Column({ type: "text" })
  html!: string;

  @Column({ type: "text" })
  text!: string;

  @Column({ name: "updated_at", type: "timestamptz" })
  updatedAt!: Date;

  @ManyToOne(() => ProjectEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    {
      name: "organization_id",
      referencedColumnName: "organizationId",
      foreignKeyConstraintName: "message_templates_project_fkey",
    },
    { name: "project_id", referencedColumnName: "id" },
  ])
  project?: ProjectEntity;
}
