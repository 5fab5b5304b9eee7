import type { MigrationInterface, QueryRunner } from "typeorm";

// Projects' own email and SMS templates (issue 29, docs/templates.md): one row per project,
// message kind and language, removed with the project. The sources are Liquid templates, kept
// as the developer wrote them; they hold no secret (the link or code is a variable).
export class MessageTemplates1734300000300 implements MigrationInterface {
  name = "MessageTemplates1734300000300";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE message_templates (
        project_id       text NOT NULL,
        organization_id  text NOT NULL,
        kind             text NOT NULL,
        locale           text NOT NULL,
        subject          text NOT NULL,
        html             text NOT NULL,
        text             text NOT NULL,
        updated_at       timestamptz NOT NULL,
        PRIMARY KEY (project_id, kind, locale),
        CONSTRAINT message_templates_kind_check CHECK (kind IN ('email_verification', 'signup_confirmation',
          'signup_notice', 'password_reset', 'email_otp', 'magic_link', 'user_invitation', 'email_change_confirm',
          'email_change_notice', 'mfa_failures_notice', 'sms_otp', 'sms_mfa')),
        CONSTRAINT message_templates_project_fkey FOREIGN KEY (organization_id, project_id)
          REFERENCES projects (organization_id, id) ON DELETE CASCADE
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE message_templates`);
  }
}
