import type { Project } from "../../domain/account.js";
import { canonicalLocale } from "../../i18n/languages.js";
import type { Logger } from "../../log.js";
import type { Repositories } from "../../store/database.js";
import type { MailContent } from "../mailer.js";
import { renderTemplate, TemplateError } from "./engine.js";
import type { MessageKind, VariableValue } from "./kinds.js";
import type { MessageTemplate } from "./message-template.js";

// How a send flow words its message: the project's own template for the user's language when
// it has one, else Gatehouse's built-in one. The message then goes through the outbox as
// before. A stored template was valid when saved, but a render can still fail at send time (a
// project renamed to a longer name pushes an SMS past 1,600 characters, a loop over a real value
// passes the allocation bound): the user still gets a message, the built-in one, and the log
// says why.

export interface ComposeInput {
  project: Pick<Project, "id" | "organizationId">;
  kind: MessageKind;
  /**
   * The tags the message may be in, most wanted first: the user's stored `locale` (which may be
   * a language Gatehouse does not ship, `pt-BR`, that the project words itself), then the
   * language chosen for the built-in message. Empty and malformed entries are skipped.
   */
  locales: ReadonlyArray<string | null | undefined>;
  variables: Record<string, VariableValue>;
}

/**
 * The project's template for the first of `locales` it has: each tag exactly, then its language
 * alone (`pt-BR`, then `pt`).
 */
export async function projectTemplateFor(
  repos: Repositories,
  project: Pick<Project, "id" | "organizationId">,
  kind: MessageKind,
  locales: ReadonlyArray<string | null | undefined>,
): Promise<MessageTemplate | null> {
  const candidates = new Set<string>();
  for (const locale of locales) {
    const canonical = locale ? canonicalLocale(locale) : undefined;
    if (!canonical) continue;
    candidates.add(canonical);
    candidates.add(canonical.split("-")[0]);
  }
  for (const candidate of candidates) {
    const found = await repos.messageTemplates.get(project.organizationId, project.id, kind, candidate);
    if (found) return found;
  }
  return null;
}

/** The email to send: the project's template rendered, or `builtIn()` when it has none or it fails. */
export async function composeMail(
  repos: Repositories,
  logger: Logger,
  input: ComposeInput,
  builtIn: () => MailContent,
): Promise<MailContent> {
  return (await composeWith(repos, logger, input)) ?? builtIn();
}

/** The SMS text to send, as composeMail. */
export async function composeSms(
  repos: Repositories,
  logger: Logger,
  input: ComposeInput,
  builtIn: () => string,
): Promise<string> {
  return (await composeWith(repos, logger, input))?.text ?? builtIn();
}

async function composeWith(repos: Repositories, logger: Logger, input: ComposeInput): Promise<MailContent | null> {
  const template = await projectTemplateFor(repos, input.project, input.kind, input.locales);
  if (!template) return null;
  try {
    return await renderTemplate(input.kind, template, input.variables, template.locale);
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    // The reason only: the values rendered hold the code or link.
    logger.warn(
      {
        project_id: input.project.id,
        kind: input.kind,
        locale: template.locale,
        part: error.part,
        reason: error.message,
      },
      "the project's message template did not render: the built-in message is sent instead",
    );
    return null;
  }
}
