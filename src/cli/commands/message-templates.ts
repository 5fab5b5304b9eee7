import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import {
  DeleteMessageTemplateRequestSchema,
  DeleteMessageTemplateResponseSchema,
  ListMessageTemplatesRequestSchema,
  ListMessageTemplatesResponseSchema,
  PreviewMessageTemplateRequestSchema,
  PreviewMessageTemplateResponseSchema,
  SetMessageTemplateRequestSchema,
  SetMessageTemplateResponseSchema,
  type MessageTemplate,
} from "../../../gen/gatehouse/account/v1/message_templates_pb.js";
import type { Command } from "../command.js";
import type { CliContext } from "../context.js";
import { CliError, EXIT, usageError } from "../errors.js";
import { text, type Values } from "../options.js";
import { checkedRequest, iso } from "../request.js";
import { projectOption } from "../scope.js";

// A project's own email and SMS templates (docs/templates.md). The templates are files, named
// by option and read from the operator's directory (also when the command runs inside the
// server), so a shell never has to quote Liquid.

const KIND = "KIND";
const SOURCE_OPTIONS = {
  subject: { type: "string" },
  "subject-file": { type: "string" },
  "html-file": { type: "string" },
  "text-file": { type: "string" },
} as const;
/** Which template: the project (and its organization, when the operator has several) and the kind and language. */
const TEMPLATE_OPTIONS = {
  org: { type: "string" },
  project: { type: "string" },
  kind: { type: "string" },
  locale: { type: "string" },
} as const;
const SOURCE_SYNOPSIS = "[--subject TEXT | --subject-file FILE] [--html-file FILE] [--text-file FILE]";

export const messageTemplateCommands: Command[] = [
  {
    name: "template set",
    synopsis: `--project PROJECT_ID --kind ${KIND} --locale LOCALE ${SOURCE_SYNOPSIS} [--org ORG_ID]`,
    options: { ...TEMPLATE_OPTIONS, ...SOURCE_OPTIONS },
    async run(ctx, values) {
      requireTemplate(values);
      if (text(values, "text-file") === undefined)
        throw usageError("--text-file is required: the plain-text body (the SMS, for SMS kinds)");
      const source = await sourceOptions(ctx, values);
      const req = checkedRequest(SetMessageTemplateRequestSchema, {
        projectId: text(values, "project") ?? "",
        kind: text(values, "kind") ?? "",
        locale: text(values, "locale") ?? "",
        ...source,
      });
      const { organizationId } = await projectOption(ctx, values);
      const stored = await (await ctx.account(organizationId)).setMessageTemplate(req);
      return {
        json: ctx.restJson(SetMessageTemplateResponseSchema, stored),
        text: `set template ${templateLine(stored)}`,
      };
    },
  },
  {
    name: "template list",
    synopsis: "--project PROJECT_ID [--org ORG_ID]",
    options: { org: { type: "string" }, project: { type: "string" } },
    async run(ctx, values) {
      requireProject(values);
      const req = checkedRequest(ListMessageTemplatesRequestSchema, { projectId: text(values, "project") ?? "" });
      const { organizationId } = await projectOption(ctx, values);
      const answer = await (await ctx.account(organizationId)).listMessageTemplates(req);
      return {
        json: ctx.restJson(ListMessageTemplatesResponseSchema, answer),
        text:
          answer.data.map(templateLine).join("\n") ||
          `no templates in project ${req.projectId}: every message is built in`,
      };
    },
  },
  {
    name: "template delete",
    synopsis: `--project PROJECT_ID --kind ${KIND} --locale LOCALE [--org ORG_ID]`,
    options: TEMPLATE_OPTIONS,
    async run(ctx, values) {
      requireTemplate(values);
      const req = checkedRequest(DeleteMessageTemplateRequestSchema, {
        projectId: text(values, "project") ?? "",
        kind: text(values, "kind") ?? "",
        locale: text(values, "locale") ?? "",
      });
      const { organizationId, project } = await projectOption(ctx, values);
      const answer = await (await ctx.account(organizationId)).deleteMessageTemplate(req);
      return {
        json: ctx.restJson(DeleteMessageTemplateResponseSchema, answer),
        text: `deleted the ${req.kind} template for ${req.locale} of project ${project.id}: the built-in one is used again`,
      };
    },
  },
  {
    name: "template preview",
    synopsis: `--project PROJECT_ID --kind ${KIND} --locale LOCALE ${SOURCE_SYNOPSIS} [--org ORG_ID]`,
    options: { ...TEMPLATE_OPTIONS, ...SOURCE_OPTIONS },
    async run(ctx, values) {
      requireTemplate(values);
      const source = await sourceOptions(ctx, values);
      const req = checkedRequest(PreviewMessageTemplateRequestSchema, {
        projectId: text(values, "project") ?? "",
        kind: text(values, "kind") ?? "",
        locale: text(values, "locale") ?? "",
        ...source,
      });
      const { organizationId } = await projectOption(ctx, values);
      const shown = await (await ctx.account(organizationId)).previewMessageTemplate(req);
      const lines = [`${shown.source} template, ${shown.locale}`];
      if (shown.subject) lines.push(`subject: ${shown.subject}`);
      lines.push("", shown.text.trimEnd());
      if (shown.html) lines.push("", "--- html ---", shown.html.trimEnd());
      return { json: ctx.restJson(PreviewMessageTemplateResponseSchema, shown), text: lines.join("\n") };
    },
  },
];

/** The draft's parts from the options: each file read whole, relative to the operator's directory. */
async function sourceOptions(
  ctx: CliContext,
  values: Values,
): Promise<{ subject: string; html: string; text: string }> {
  if (text(values, "subject") !== undefined && text(values, "subject-file") !== undefined)
    throw usageError("--subject and --subject-file: give one of them");
  const read = async (option: string): Promise<string> => {
    const file = text(values, option);
    if (file === undefined) return "";
    const path = resolve(ctx.cwd, file);
    try {
      return await readFile(path, "utf8");
    } catch (error) {
      throw new CliError(
        "FILE_UNREADABLE",
        `cannot read ${file} (--${option}): ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
        EXIT.NO_INPUT,
      );
    }
  };
  // A subject file ends with the editor's newline; the subject is one line.
  const subject = text(values, "subject") ?? (await read("subject-file")).replace(/\r?\n$/, "");
  return { subject, html: await read("html-file"), text: await read("text-file") };
}

// Missing options are told before the database is opened; their values are the proto's to check.
function requireProject(values: Values): void {
  if (text(values, "project") === undefined)
    throw usageError("--project is required: the project's id (`gatehouse project list --org ID` shows them)");
}

function requireTemplate(values: Values): void {
  requireProject(values);
  if (text(values, "kind") === undefined)
    throw usageError("--kind is required: the message (email_otp, magic_link, sms_otp, … : docs/templates.md)");
  if (text(values, "locale") === undefined) throw usageError("--locale is required: a BCP 47 tag such as en or pt-BR");
}

function templateLine(t: Omit<MessageTemplate, "$typeName">): string {
  return `${t.kind}  ${t.locale}  project ${t.projectId}  updated ${iso(t.updatedAt)}`;
}
