import ar from "../../../src/i18n/catalogs/reasons/ar.json" with { type: "json" };
import de from "../../../src/i18n/catalogs/reasons/de.json" with { type: "json" };
import en from "../../../src/i18n/catalogs/reasons/en.json" with { type: "json" };
import es from "../../../src/i18n/catalogs/reasons/es.json" with { type: "json" };
import fr from "../../../src/i18n/catalogs/reasons/fr.json" with { type: "json" };
import { FALLBACK_LANGUAGE, shippedLanguageOf, type Language } from "../../../src/i18n/languages.js";
import { errorReason } from "./errors.js";

// The words for an error reason are the catalog the hosted pages show (src/i18n/catalogs/reasons),
// so an application's own form and Gatehouse's pages say the same thing in the same language.
// Kept apart from errors.ts: the pages' bundle imports that file and must carry no catalog.
// The catalog test keeps every reason's words free of ICU arguments, so they are shown as written.

const WORDS: Record<Language, Readonly<Record<string, string>>> = { en, es, fr, de, ar };

/**
 * What a Gatehouse error means to the person using the application, in `language` (a BCP 47
 * tag: `fr-CA` reads French; a language Gatehouse does not ship reads English). Undefined for
 * an error without a Gatehouse reason (a network failure, a proxy's page), and for a reason
 * newer than this SDK's catalog: branch on errorReason, show these words.
 */
export function errorMessage(error: unknown, language = "en"): string | undefined {
  const reason = errorReason(error);
  if (!reason) return undefined;
  const key = `reason.${reason}`;
  const words = WORDS[shippedLanguageOf(language) ?? FALLBACK_LANGUAGE];
  if (Object.hasOwn(words, key)) return words[key];
  return Object.hasOwn(WORDS.en, key) ? WORDS.en[key] : undefined;
}
