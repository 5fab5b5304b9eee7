import type { Project } from "../../domain/account.js";
import type { AuditOrigin } from "../../domain/audit.js";
import { DomainError, validationFailed } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import { canonicalLocale } from "../../i18n/languages.js";
import type { TemplateSource } from "../../notify/message-templates/engine.js";
import { isMessageKind, MESSAGE_KINDS, type MessageKind } from "../../notify/message-templates/kinds.js";
import type { MessageTemplate } from "../../notify/message-templates/message-template.js";
import { checkedLocale, validateTemplate } from "../../notify/message-templates/validate.js";
import type { FlowDeps } from "../deps.js";
import { projectNotFound } from "../projects/not-found.js";

// SetMessageTemplate, ListMessageTemplates, DeleteMessageTemplate (Account interface,
// developers and admins). A template is checked before it is stored (validate.ts), so every
// stored one rendered with the kind's sample values; sending reads it in the send's transaction
// (compose.ts), so a change applies to the next message.

export interface SetMessageTemplateInput extends TemplateSource {
  projectId: string;
  kind: string;
  locale: string;
}

/** The kind, or VALIDATION_FAILED on `kind` (the proto's rule, repeated for the CLI's callers). */
export function checkedKind(kind: string): MessageKind {
  if (!isMessageKind(kind))
    throw validationFailed([{ field: "kind", description: `must be one of ${MESSAGE_KINDS.join(", ")}` }]);
  return kind;
}

/** The project's name as the send flows give it: an invitation shows the display name, the others the name. */
export function projectNameIn(kind: MessageKind, project: Project): string {
  return kind === "user_invitation" ? project.displayName || project.name : project.name;
}

export async function setMessageTemplate(
  deps: Pick<FlowDeps, "db">,
  organizationId: string,
  input: SetMessageTemplateInput,
  origin: AuditOrigin,
): Promise<MessageTemplate> {
  const kind = checkedKind(input.kind);
  const locale = checkedLocale(input.locale);
  if (!isIdOf("proj", input.projectId)) throw projectNotFound();
  // The project first: another organization's project is not found, whatever the template says.
  const project = await deps.db.repos.projects.get(organizationId, input.projectId);
  if (!project) throw projectNotFound();
  const source = { subject: input.subject, html: input.html, text: input.text };
  // The sample render uses the project's own name too: a long name must not make the template
  // fail at its first send.
  await validateTemplate(kind, source, projectNameIn(kind, project));
  return deps.db.transaction(async (repos) => {
    if (!(await repos.projects.getForShare(organizationId, input.projectId))) throw projectNotFound();
    const stored = await repos.messageTemplates.set(organizationId, input.projectId, kind, locale, source);
    await repos.auditEvents.record({
      type: "message_template.set",
      organizationId,
      projectId: input.projectId,
      details: { kind, locale },
      origin,
    });
    return stored;
  });
}

export async function listMessageTemplates(
  deps: Pick<FlowDeps, "db">,
  organizationId: string,
  projectId: string,
): Promise<MessageTemplate[]> {
  if (!isIdOf("proj", projectId)) throw projectNotFound();
  const { repos } = deps.db;
  if (!(await repos.projects.get(organizationId, projectId))) throw projectNotFound();
  return repos.messageTemplates.list(organizationId, projectId);
}

export async function deleteMessageTemplate(
  deps: Pick<FlowDeps, "db">,
  organizationId: string,
  input: { projectId: string; kind: string; locale: string },
  origin: AuditOrigin,
): Promise<{ deleted: true }> {
  if (!isIdOf("proj", input.projectId)) throw projectNotFound();
  const notFound = () =>
    new DomainError("TEMPLATE_NOT_FOUND", `this project has no ${input.kind} template for ${input.locale}`);
  // An unknown kind or a malformed tag names nothing that could have been stored.
  const locale = canonicalLocale(input.locale);
  const kind = isMessageKind(input.kind) ? input.kind : undefined;
  await deps.db.transaction(async (repos) => {
    if (!(await repos.projects.get(organizationId, input.projectId))) throw projectNotFound();
    if (!kind || !locale) throw notFound();
    if (!(await repos.messageTemplates.delete(organizationId, input.projectId, kind, locale))) throw notFound();
    await repos.auditEvents.record({
      type: "message_template.deleted",
      organizationId,
      projectId: input.projectId,
      details: { kind, locale },
      origin,
    });
  });
  return { deleted: true };
}
