// The languages Gatehouse ships words for, and how one is chosen for a request. No Node or DOM
// imports: the hosted pages' bundle uses this file too.

/** Complete catalogs (docs/languages.md); English is the fallback for every other tag. */
export const SHIPPED_LANGUAGES = ["en", "es", "fr", "de", "ar"] as const;
export type Language = (typeof SHIPPED_LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = "en";

const RIGHT_TO_LEFT = new Set(["ar", "he", "fa", "ur"]);

/** A BCP 47 tag in its canonical form (`pt-br` → `pt-BR`), or undefined when it is not one. */
export function canonicalLocale(tag: string): string | undefined {
  const trimmed = tag.trim();
  if (!trimmed || trimmed.length > 35) return undefined;
  try {
    return Intl.getCanonicalLocales(trimmed)[0];
  } catch {
    return undefined;
  }
}

/** The shipped language a tag asks for (`fr-CA` → `fr`), or undefined. */
export function shippedLanguageOf(tag: string | undefined): Language | undefined {
  if (!tag) return undefined;
  const canonical = canonicalLocale(tag);
  if (!canonical) return undefined;
  const language = canonical.split("-")[0].toLowerCase();
  return (SHIPPED_LANGUAGES as readonly string[]).includes(language) ? (language as Language) : undefined;
}

export function isRightToLeft(tag: string): boolean {
  return RIGHT_TO_LEFT.has((canonicalLocale(tag) ?? tag).split("-")[0].toLowerCase());
}

/**
 * The tags of an `Accept-Language` header, most wanted first (RFC 9110 section 12.5.4):
 * `q=0` and malformed entries dropped, ties kept in the header's order, at most 20 read.
 */
export function acceptLanguageTags(header: string | null | undefined): string[] {
  if (!header) return [];
  const entries: { tag: string; q: number; at: number }[] = [];
  for (const [at, part] of header.split(",").slice(0, 20).entries()) {
    const [rawTag, ...params] = part.trim().split(";");
    const tag = rawTag?.trim() ?? "";
    if (!tag || tag === "*") continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (q > 0 && q <= 1) entries.push({ tag, q, at });
  }
  return entries.sort((a, b) => b.q - a.q || a.at - b.at).map((e) => e.tag);
}

/** `ui_locales` (OpenID Connect): space-separated tags, most wanted first. */
export function uiLocalesTags(value: string | null | undefined): string[] {
  return (value ?? "").split(" ").filter(Boolean).slice(0, 20);
}

export interface LanguageChoice {
  /** `?lang=` on a hosted page. */
  lang?: string | null;
  /** OpenID Connect `ui_locales` of the authorization request. */
  uiLocales?: string | null;
  /** The user's stored `locale`, once the user is known. */
  userLocale?: string | null;
  /** The request's `Accept-Language` header. */
  acceptLanguage?: string | null;
  /** The project's `default_locale`. */
  projectDefault?: string | null;
}

/**
 * The shipped language to speak, in the order API.md section 7 and issue 29 give: `?lang=`,
 * then `ui_locales`, then the user's `locale`, then `Accept-Language`, then the project's
 * default; each source counts only when it names a shipped language, and English ends the
 * list.
 */
export function chooseLanguage(choice: LanguageChoice): Language {
  const candidates = [
    choice.lang ?? undefined,
    ...uiLocalesTags(choice.uiLocales),
    choice.userLocale ?? undefined,
    ...acceptLanguageTags(choice.acceptLanguage),
    choice.projectDefault ?? undefined,
  ];
  for (const tag of candidates) {
    const language = shippedLanguageOf(tag);
    if (language) return language;
  }
  return FALLBACK_LANGUAGE;
}
