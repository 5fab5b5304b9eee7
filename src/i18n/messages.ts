import ar from "./catalogs/messages/ar.json" with { type: "json" };
import de from "./catalogs/messages/de.json" with { type: "json" };
import en from "./catalogs/messages/en.json" with { type: "json" };
import es from "./catalogs/messages/es.json" with { type: "json" };
import fr from "./catalogs/messages/fr.json" with { type: "json" };
import { chooseLanguage, isRightToLeft, type Language } from "./languages.js";
import { translator, type Catalog, type Translate } from "./translate.js";

// The words of end users' emails and SMS (src/notify/*-templates.ts), one catalog per shipped
// language. Member emails (src/notify/templates.ts) stay English: members use the console.

export const MESSAGE_CATALOGS: Readonly<Record<Language, Catalog>> = { en, es, fr, de, ar };

/** What a template needs to speak one language. */
export interface MessageWords {
  language: Language;
  t: Translate;
  /** `ltr` or `rtl`, for the HTML part's `dir`. */
  dir: "ltr" | "rtl";
  /** A moment (a link's expiry) as the language writes it, in UTC, named as such. */
  dateTime(at: Date): string;
}

const cache = new Map<Language, MessageWords>();

export function messageWords(language: Language): MessageWords {
  let words = cache.get(language);
  if (!words) {
    const format = new Intl.DateTimeFormat(language, {
      year: "numeric",
      month: "long",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZone: "UTC",
      timeZoneName: "short",
    });
    words = {
      language,
      t: translator(language, MESSAGE_CATALOGS[language], MESSAGE_CATALOGS.en),
      dir: isRightToLeft(language) ? "rtl" : "ltr",
      dateTime: (at) => format.format(at),
    };
    cache.set(language, words);
  }
  return words;
}

/**
 * The language of one message to an end user (issue 29): the recipient's stored `locale`, else
 * the request's `Accept-Language` (the hosted pages send the page's language there), else the
 * project's `default_locale`, else English. Each counts only when it names a shipped language.
 */
export function messageLanguage(choice: {
  userLocale?: string | null;
  acceptLanguage?: string | null;
  projectDefault?: string | null;
}): Language {
  return chooseLanguage(choice);
}
