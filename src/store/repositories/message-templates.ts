import type { EntityManager } from "typeorm";
import type { Clock } from "../../domain/clock.js";
import type { TemplateSource } from "../../notify/message-templates/engine.js";
import { MESSAGE_KINDS, type MessageKind } from "../../notify/message-templates/kinds.js";
import type { MessageTemplate } from "../../notify/message-templates/message-template.js";
import { MessageTemplateEntity } from "../entities/message-template.entity.js";
import { entityColumns, oneOf, sql, statements } from "../sql/index.js";

function toTemplate(e: Omit<MessageTemplateEntity, "organizationId">): MessageTemplate {
  return {
    projectId: e.projectId,
    kind: e.kind,
    locale: e.locale,
    subject: e.subject,
    html: e.html,
    text: e.text,
    updatedAt: e.updatedAt,
  };
}

const TEMPLATE = entityColumns(MessageTemplateEntity, {
  omit: ["organizationId"],
  narrow: { kind: oneOf(...MESSAGE_KINDS) },
});

/** Projects' own message templates; every method takes the organization and the project. */
export function messageTemplatesRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
  const templateColumns = TEMPLATE.on(manager);
  return {
    /** By kind, then language. */
    async list(organizationId: string, projectId: string): Promise<MessageTemplate[]> {
      const rows = await manager.find(MessageTemplateEntity, {
        where: { organizationId, projectId },
        order: { kind: "ASC", locale: "ASC" },
      });
      return rows.map(toTemplate);
    },

    async get(
      organizationId: string,
      projectId: string,
      kind: MessageKind,
      locale: string,
    ): Promise<MessageTemplate | null> {
      const found = await manager.findOneBy(MessageTemplateEntity, { organizationId, projectId, kind, locale });
      return found ? toTemplate(found) : null;
    },

    /**
     * Creates or replaces the template of `kind` and `locale`. A conflict updates only a row of
     * the same organization: another organization's project id fails the foreign key, or (when
     * that project has such a row) changes nothing and throws.
     */
    async set(
      organizationId: string,
      projectId: string,
      kind: MessageKind,
      locale: string,
      source: TemplateSource,
    ): Promise<MessageTemplate> {
      const stored = await run.first(
        sql`INSERT INTO message_templates (project_id, organization_id, kind, locale, subject, html, text, updated_at)
            VALUES (${projectId}, ${organizationId}, ${kind}, ${locale}, ${source.subject}, ${source.html},
                    ${source.text}, ${clock.now()})
            ON CONFLICT (project_id, kind, locale) DO UPDATE
              SET subject = EXCLUDED.subject, html = EXCLUDED.html, text = EXCLUDED.text,
                  updated_at = EXCLUDED.updated_at
              WHERE message_templates.organization_id = EXCLUDED.organization_id
            RETURNING ${templateColumns.list}`,
        templateColumns.decode,
      );
      if (!stored) throw new Error("message template: the project is another organization's");
      return toTemplate(stored);
    },

    async delete(organizationId: string, projectId: string, kind: MessageKind, locale: string): Promise<boolean> {
      const result = await manager.delete(MessageTemplateEntity, { organizationId, projectId, kind, locale });
      return (result.affected ?? 0) > 0;
    },
  };
}

export type MessageTemplatesRepository = ReturnType<typeof messageTemplatesRepository>;
