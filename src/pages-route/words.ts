import type { Language } from "../i18n/languages.js";
import { translator, type Catalog, type Translate } from "../i18n/translate.js";
import ar from "../i18n/catalogs/pages/ar.json" with { type: "json" };
import de from "../i18n/catalogs/pages/de.json" with { type: "json" };
import en from "../i18n/catalogs/pages/en.json" with { type: "json" };
import es from "../i18n/catalogs/pages/es.json" with { type: "json" };
import fr from "../i18n/catalogs/pages/fr.json" with { type: "json" };
import consoleAr from "../i18n/catalogs/console/ar.json" with { type: "json" };
import consoleDe from "../i18n/catalogs/console/de.json" with { type: "json" };
import consoleEn from "../i18n/catalogs/console/en.json" with { type: "json" };
import consoleEs from "../i18n/catalogs/console/es.json" with { type: "json" };
import consoleFr from "../i18n/catalogs/console/fr.json" with { type: "json" };
import reasonsAr from "../i18n/catalogs/reasons/ar.json" with { type: "json" };
import reasonsDe from "../i18n/catalogs/reasons/de.json" with { type: "json" };
import reasonsEn from "../i18n/catalogs/reasons/en.json" with { type: "json" };
import reasonsEs from "../i18n/catalogs/reasons/es.json" with { type: "json" };
import reasonsFr from "../i18n/catalogs/reasons/fr.json" with { type: "json" };

// The hosted pages' words (src/i18n/catalogs/pages, docs/languages.md) with the error reasons'
// (src/i18n/catalogs/reasons, the SDK's errorMessage reads the same), read once, English laid
// under each language so a page always has every key; the test/i18n catalog test keeps a
// language from lacking any.

const OWN: Record<Language, Catalog> = {
  en: { ...en, ...reasonsEn },
  es: { ...es, ...reasonsEs },
  fr: { ...fr, ...reasonsFr },
  de: { ...de, ...reasonsDe },
  ar: { ...ar, ...reasonsAr },
};
const CATALOGS: Record<Language, Catalog> = {
  en: OWN.en,
  es: { ...OWN.en, ...OWN.es },
  fr: { ...OWN.en, ...OWN.fr },
  de: { ...OWN.en, ...OWN.de },
  ar: { ...OWN.en, ...OWN.ar },
};

/** One language's whole catalog, for the page's settings block: the bundle carries none. */
export function pageWords(language: Language): Catalog {
  return CATALOGS[language];
}

// The console's words (src/i18n/catalogs/console) go to the account page only: the project
// pages, which every end user loads, do not carry them.
const CONSOLE: Record<Language, Catalog> = {
  en: consoleEn,
  es: consoleEs,
  fr: consoleFr,
  de: consoleDe,
  ar: consoleAr,
};
const ACCOUNT_CATALOGS = new Map<Language, Catalog>();

/** The account page's catalog: the pages' words and the console's, English laid under each. */
export function accountPageWords(language: Language): Catalog {
  let catalog = ACCOUNT_CATALOGS.get(language);
  if (!catalog) {
    catalog = { ...CATALOGS[language], ...CONSOLE.en, ...CONSOLE[language] };
    ACCOUNT_CATALOGS.set(language, catalog);
  }
  return catalog;
}

const translators = new Map<Language, Translate>();

/** The server's words for a page (its title, a page in words) in `language`. */
export function pageTranslator(language: Language): Translate {
  let t = translators.get(language);
  if (!t) {
    t = translator(language, CATALOGS[language], CATALOGS.en);
    translators.set(language, t);
  }
  return t;
}
