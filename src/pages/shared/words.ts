// The page's words: the server chose the language (src/pages-route/language.ts) and put that
// language's catalog, with English under it for any key it lacks, into the page's settings, so
// the bundle carries no catalog of its own and every language costs one download only.
import type { Language } from "../../i18n/languages.js";
import { translator, type Catalog, type MessageValues, type Translate } from "../../i18n/translate.js";

/** What the settings block carries about the page's language (shared/config.ts). */
export interface PageLanguage {
  language: Language;
  /** The catalog of `language`, English filled in under it. */
  words: Catalog;
  /**
   * The language the address asked for (`?lang=`, `ui_locales`), carried to the next hosted
   * page so a choice made in the link survives the moves; "" when the browser's chose.
   */
  lang_param: string;
}

let current: { language: Language; words: Catalog; translate: Translate } | undefined;

export function useWords(settings: PageLanguage): void {
  current = {
    language: settings.language,
    words: settings.words,
    translate: translator(settings.language, settings.words, settings.words),
  };
}

/** The words for `key` in the page's language; the key itself before useWords (never blank). */
export function t(key: string, values?: MessageValues): string {
  return current ? current.translate(key, values) : key;
}

/** Whether the catalog has words for `key` (a reason the pages may not know). */
export function hasWords(key: string): boolean {
  return current !== undefined && Object.hasOwn(current.words, key);
}

export function pageLanguage(): Language {
  return current?.language ?? "en";
}

// Directional formatting characters: embeddings, overrides, isolates and marks.
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * A name someone else chose (an organization's, an email), ready to stand in a sentence of any
 * direction: its own direction controls removed, and the whole set apart as one first-strong
 * isolate (U+2068 … U+2069), so a right-to-left override in it cannot turn the words around it.
 */
export function isolate(name: string): string {
  return `\u2068${name.replace(BIDI_CONTROLS, "")}\u2069`;
}
