import { IntlMessageFormat } from "intl-messageformat";
import { FALLBACK_LANGUAGE, type Language } from "./languages.js";

// ICU MessageFormat over one catalog: `{name}` arguments, plurals, select and `{n, number}` /
// `{d, date, medium}` formatted with Intl in the catalog's language. Shared by the server
// (emails, SMS) and the hosted pages' bundle.

export type Catalog = Readonly<Record<string, string>>;
export type MessageValues = Record<string, string | number | Date | boolean>;
export type Translate = (key: string, values?: MessageValues) => string;

/**
 * A translator for `language` that falls back to English for a key the language lacks (the
 * catalog test keeps that from shipping) and to the key itself when neither has it, so a page
 * never shows nothing. Compiled messages are kept per translator.
 */
export function translator(language: Language, catalog: Catalog, english: Catalog): Translate {
  const compiled = new Map<string, IntlMessageFormat>();
  return (key, values) => {
    let message = compiled.get(key);
    if (!message) {
      const own = catalog[key];
      const source = own ?? english[key];
      if (source === undefined) return key;
      message = new IntlMessageFormat(source, own === undefined ? FALLBACK_LANGUAGE : language, undefined, {
        ignoreTag: true,
      });
      compiled.set(key, message);
    }
    return String(message.format(values));
  };
}
