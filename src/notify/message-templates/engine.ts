import { Liquid, type Template } from "liquidjs";
import type { MailContent } from "../mailer.js";
import { KINDS, type MessageKind, type VariableValue } from "./kinds.js";

// The template engine of projects' own messages: LiquidJS, which interprets its own small
// language and never evaluates JavaScript. Further locked down here, since a project's
// developer writes the template and any user of the project supplies some of its values:
// - no file system: the tags that read other templates (include, render, layout, block) are
//   removed, so they are unknown tags, refused when the template is saved;
// - a variable the kind does not define, or a filter Liquid does not have, is an error
//   (strictVariables, strictFilters), never an empty string;
// - values are read through their own properties only (no prototype: `code.constructor` is
//   undefined, hence an error);
// - the HTML part escapes every output (`outputEscape`), and its `raw` filter is removed, so a
//   value a user chose (an email, a project name with `<script>` or `{{ }}` in it) is text;
// - every parse and render is bounded: template length, allocations (a `(1..1000000)` range
//   counts a million) and time.

export type TemplatePart = "subject" | "html" | "text";

export interface TemplateSource {
  subject: string;
  html: string;
  text: string;
}

/** Bounds of one render; a template that passes the sample render can still trip one at send time. */
export const RENDER_BOUNDS = {
  /** Characters one parse may read: above the proto's largest part (65,536). */
  parseLimit: 100_000,
  /** Allocations one render may make (strings built, ranges iterated). */
  memoryLimit: 1_000_000,
  /** Milliseconds one render may take: a guard against a pathological template, not a budget. */
  renderLimit: 2_000,
} as const;

/** Rendered sizes past which a message is refused rather than sent. */
export const RENDERED_LIMITS = { subject: 1_000, html: 262_144, text: 131_072, sms: 1_600 } as const;

/** A template the engine cannot read (syntax, unknown tag or filter), or a render that failed. */
export class TemplateError extends Error {
  constructor(
    readonly part: TemplatePart,
    message: string,
  ) {
    super(message);
    this.name = "TemplateError";
  }
}

function lockedDown(html: boolean): Liquid {
  const engine = new Liquid({
    strictVariables: true,
    strictFilters: true,
    ownPropertyOnly: true,
    // An in-memory lookup that holds nothing: even a tag put back could read no file.
    templates: {},
    outputEscape: html ? "escape" : undefined,
    timezoneOffset: 0,
    parseLimit: RENDER_BOUNDS.parseLimit,
    memoryLimit: RENDER_BOUNDS.memoryLimit,
    renderLimit: RENDER_BOUNDS.renderLimit,
  });
  for (const tag of ["include", "render", "layout", "block"]) delete engine.tags[tag];
  if (html) delete engine.filters.raw;
  return engine;
}

const htmlEngine = lockedDown(true);
const plainEngine = lockedDown(false);
const engineFor = (part: TemplatePart) => (part === "html" ? htmlEngine : plainEngine);

/** Liquid's first line, without the long excerpt some errors carry. */
function shortMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split("\n")[0] ?? "";
  return first.length > 300 ? `${first.slice(0, 297)}...` : first;
}

/** Parses one part; a syntax error, an unknown tag or filter is a TemplateError. */
export function parsePart(part: TemplatePart, source: string): Template[] {
  try {
    return engineFor(part).parse(source);
  } catch (error) {
    throw new TemplateError(part, shortMessage(error));
  }
}

/** Every variable path the part reads from outside (`code`, `project_name.size`), locals left out. */
export function variablesOf(part: TemplatePart, parsed: Template[]): string[] {
  return engineFor(part).globalFullVariablesSync(parsed);
}

/** Values as templates see them: moments formatted with Intl in the message's language. */
export function templateValues(
  values: Record<string, VariableValue>,
  language: string,
): Record<string, string | number> {
  const format = dateFormat(language);
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, value instanceof Date ? format.format(value) : value]),
  );
}

function dateFormat(language: string): Intl.DateTimeFormat {
  const options: Intl.DateTimeFormatOptions = {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  };
  try {
    return new Intl.DateTimeFormat(language, options);
  } catch {
    return new Intl.DateTimeFormat("en", options);
  }
}

async function renderPart(
  part: TemplatePart,
  source: string,
  values: Record<string, string | number>,
): Promise<string> {
  const parsed = parsePart(part, source);
  try {
    return String(await engineFor(part).render(parsed, values));
  } catch (error) {
    throw new TemplateError(part, shortMessage(error));
  }
}

/**
 * Renders a kind's template with `values` in `language`: an email's three parts, or an SMS's
 * text. Throws TemplateError when a part fails or its result breaks a rule a sent message must
 * keep (a one-line subject, the sizes of RENDERED_LIMITS).
 */
export async function renderTemplate(
  kind: MessageKind,
  source: TemplateSource,
  values: Record<string, VariableValue>,
  language: string,
): Promise<MailContent> {
  const scope = templateValues(values, language);
  const text = await renderPart("text", source.text, scope);
  if (KINDS[kind].sms) {
    if (text.length > RENDERED_LIMITS.sms)
      throw new TemplateError("text", `the SMS is ${text.length} characters rendered; at most ${RENDERED_LIMITS.sms}`);
    if (text.trim() === "") throw new TemplateError("text", "the SMS is empty rendered");
    return { subject: "", html: "", text };
  }
  const subject = (await renderPart("subject", source.subject, scope)).trim();
  const html = await renderPart("html", source.html, scope);
  if (/[\r\n]/.test(subject)) throw new TemplateError("subject", "the subject must be one line rendered");
  if (subject === "") throw new TemplateError("subject", "the subject is empty rendered");
  for (const [part, value] of [
    ["subject", subject],
    ["html", html],
    ["text", text],
  ] as const) {
    if (value.length > RENDERED_LIMITS[part])
      throw new TemplateError(part, `${value.length} characters rendered; at most ${RENDERED_LIMITS[part]}`);
  }
  return { subject, html, text };
}
