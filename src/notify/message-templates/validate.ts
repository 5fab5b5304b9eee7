import { validationFailed, type Violation } from "../../domain/errors.js";
import { canonicalLocale } from "../../i18n/languages.js";
import {
  parsePart,
  renderTemplate,
  TemplateError,
  variablesOf,
  type TemplatePart,
  type TemplateSource,
} from "./engine.js";
import { KINDS, sampleVariables, type MessageKind } from "./kinds.js";

// The checks of SetMessageTemplate and of a draft's preview, so that a saved template renders
// for every user: its syntax, the variables it reads, the variable the message exists for, and
// a render with the kind's sample values (which also applies the rendered sizes). Sizes of the
// sources themselves are the proto's rules, checked before the flow runs.

/** Properties a template may read of a value: all of them are strings or numbers. */
const READABLE_PROPERTIES = new Set(["size", "first", "last"]);

/** The locale as stored (`pt-br` → `pt-BR`), or VALIDATION_FAILED on `locale`. */
export function checkedLocale(locale: string): string {
  const canonical = canonicalLocale(locale);
  if (!canonical)
    throw validationFailed([{ field: "locale", description: "must be a BCP 47 language tag such as en, fr or pt-BR" }]);
  return canonical;
}

/**
 * Throws VALIDATION_FAILED naming each part that would not render for every user. The sample
 * render takes the kind's sample values, with `projectName` (the project's own) when given.
 */
export async function validateTemplate(kind: MessageKind, source: TemplateSource, projectName?: string): Promise<void> {
  const violations = shapeViolations(kind, source);
  if (violations.length > 0) throw validationFailed(violations);
  const parts: TemplatePart[] = KINDS[kind].sms ? ["text"] : ["subject", "html", "text"];
  for (const part of parts) violations.push(...partViolations(kind, part, source[part]));
  if (violations.length > 0) throw validationFailed(violations);
  try {
    const values = { ...sampleVariables(kind), ...(projectName === undefined ? {} : { project_name: projectName }) };
    await renderTemplate(kind, source, values, "en");
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    throw validationFailed([{ field: error.part, description: `rendering with the sample values: ${error.message}` }]);
  }
}

function shapeViolations(kind: MessageKind, source: TemplateSource): Violation[] {
  const violations: Violation[] = [];
  if (KINDS[kind].sms) {
    for (const part of ["subject", "html"] as const)
      if (source[part] !== "")
        violations.push({ field: part, description: `${kind} is an SMS: it has a text and no ${part}` });
  } else {
    for (const part of ["subject", "html"] as const)
      if (source[part].trim() === "") violations.push({ field: part, description: `${kind} is an email: required` });
  }
  if (source.text.trim() === "") violations.push({ field: "text", description: "required" });
  return violations;
}

function partViolations(kind: MessageKind, part: TemplatePart, source: string): Violation[] {
  let paths: string[];
  try {
    paths = variablesOf(part, parsePart(part, source));
  } catch (error) {
    if (error instanceof TemplateError) return [{ field: part, description: `syntax: ${error.message}` }];
    throw error;
  }
  const spec = KINDS[kind];
  const known = Object.keys(spec.variables).sort();
  const violations: Violation[] = [];
  const roots = new Set<string>();
  for (const path of new Set(paths)) {
    const [root = "", ...properties] = path.split(".");
    roots.add(root);
    if (!(root in spec.variables)) {
      violations.push({
        field: part,
        description: `unknown variable \`${root}\`: the variables of ${kind} are ${known.join(", ")}`,
      });
    } else if (properties.some((p) => !READABLE_PROPERTIES.has(p))) {
      violations.push({
        field: part,
        description: `\`${path}\`: the variables are plain values; only .size, .first or .last may follow one`,
      });
    }
  }
  const required = spec.required;
  if (required && part === "subject" && roots.has(required)) {
    violations.push({
      field: part,
      description: `\`${required}\` may not appear in the subject: subjects are kept and logged in the clear`,
    });
  }
  if (required && part !== "subject" && !roots.has(required)) {
    violations.push({
      field: part,
      description: `must use {{ ${required} }}: it is what the ${kind} message carries`,
    });
  }
  return dedupe(violations);
}

function dedupe(violations: Violation[]): Violation[] {
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = `${v.field}\n${v.description}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
