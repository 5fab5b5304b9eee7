import { canonicalLocale } from "../i18n/languages.js";
import { validationFailed } from "./errors.js";

/** What a field holding something other than a BCP 47 tag is told. */
export const NOT_A_LOCALE = "must be a BCP 47 language tag";

/**
 * A `locale` or `default_locale` as given on the wire, in its canonical form (`pt-br` →
 * `pt-BR`), or VALIDATION_FAILED naming the field when it is not a BCP 47 tag. Any well-formed
 * tag is kept, shipped or not: a project's own templates may speak a language Gatehouse's
 * built-in words do not (those fall back to English).
 */
export function localeSetting(field: "locale" | "default_locale", tag: string): string {
  const canonical = canonicalLocale(tag);
  if (canonical === undefined) throw validationFailed([{ field, description: NOT_A_LOCALE }]);
  return canonical;
}
