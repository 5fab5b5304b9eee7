import { validationFailed } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import type { Logger } from "../../log.js";
import { builtInSample } from "../../notify/message-templates/built-in.js";
import { projectTemplateFor } from "../../notify/message-templates/compose.js";
import { renderTemplate, TemplateError, type TemplateSource } from "../../notify/message-templates/engine.js";
import { sampleVariables, type MessageKind } from "../../notify/message-templates/kinds.js";
import { checkedLocale, validateTemplate } from "../../notify/message-templates/validate.js";
import type { MailContent } from "../../notify/mailer.js";
import type { FlowDeps } from "../deps.js";
import { projectNotFound } from "../projects/not-found.js";
import { checkedKind, projectNameIn } from "./manage-templates.js";

// PreviewMessageTemplate: a message as a user whose language is `locale` would receive it, with
// the kind's sample values and the project's own name. The template is the request's draft
// (checked as on save, never stored), else the one sending would pick (compose.ts), else the
// built-in one; a stored template that fails to render previews as what is sent then, the
// built-in one.

export interface PreviewInput extends TemplateSource {
  projectId: string;
  kind: string;
  locale: string;
}

export type PreviewSource = "draft" | "project" | "built_in";

export interface Preview extends MailContent {
  source: PreviewSource;
  /** The language rendered. */
  locale: string;
}

export async function previewMessageTemplate(
  deps: Pick<FlowDeps, "db" | "logger">,
  organizationId: string,
  input: PreviewInput,
): Promise<Preview> {
  const kind = checkedKind(input.kind);
  const locale = checkedLocale(input.locale);
  if (!isIdOf("proj", input.projectId)) throw projectNotFound();
  const { repos } = deps.db;
  const project = await repos.projects.get(organizationId, input.projectId);
  if (!project) throw projectNotFound();
  const projectName = projectNameIn(kind, project);
  const values = { ...sampleVariables(kind), project_name: projectName };

  const draft = { subject: input.subject, html: input.html, text: input.text };
  if (draft.subject !== "" || draft.html !== "" || draft.text !== "") {
    // Checked with the project's name too; the render in `locale` differs only in its dates.
    await validateTemplate(kind, draft, projectName);
    try {
      return { ...(await renderTemplate(kind, draft, values, locale)), source: "draft", locale };
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      throw validationFailed([{ field: error.part, description: `rendering in ${locale}: ${error.message}` }]);
    }
  }
  const stored = await projectTemplateFor(repos, project, kind, [locale]);
  if (stored) {
    const rendered = await renderedOrNull(deps.logger, kind, stored, values, stored.locale);
    if (rendered) return { ...rendered, source: "project", locale: stored.locale };
  }
  const builtIn = builtInSample(kind, locale, projectName);
  return { ...builtIn.content, source: "built_in", locale: builtIn.language };
}

async function renderedOrNull(
  logger: Logger,
  kind: MessageKind,
  source: TemplateSource,
  values: Record<string, string | number | Date>,
  locale: string,
): Promise<MailContent | null> {
  try {
    return await renderTemplate(kind, source, values, locale);
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    logger.info(
      { kind, locale, part: error.part, reason: error.message },
      "preview: the stored template did not render",
    );
    return null;
  }
}
