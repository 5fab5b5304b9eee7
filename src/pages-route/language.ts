import { chooseLanguage, isRightToLeft, shippedLanguageOf, uiLocalesTags, type Language } from "../i18n/languages.js";

// Which language a hosted page speaks (docs/languages.md): `?lang=`, then `?ui_locales=` (an
// OpenID Provider's authorization passes its request's on), then the browser's
// Accept-Language, then the project's default_locale, then English. The user is not known
// before the page signs them in, so their stored locale plays no part here.

export interface PageLanguageChoice {
  language: Language;
  dir: "rtl" | "ltr";
  /**
   * The language the address chose (`?lang=` or `?ui_locales=`), which links to the next hosted
   * page carry as `?lang=`; "" when the browser or the project chose.
   */
  langParam: string;
}

export function choosePageLanguage(
  url: URL,
  acceptLanguage: string | string[] | undefined,
  projectDefault = "",
): PageLanguageChoice {
  const lang = url.searchParams.get("lang");
  const uiLocales = url.searchParams.get("ui_locales");
  const language = chooseLanguage({
    lang,
    uiLocales,
    acceptLanguage: Array.isArray(acceptLanguage) ? acceptLanguage.join(",") : acceptLanguage,
    projectDefault,
  });
  // The address's own choice comes first in chooseLanguage, so when it names a shipped language
  // that is the page's.
  const chosenByAddress = [lang ?? undefined, ...uiLocalesTags(uiLocales)].some((tag) => shippedLanguageOf(tag));
  return { language, dir: isRightToLeft(language) ? "rtl" : "ltr", langParam: chosenByAddress ? language : "" };
}
