import { escapeHtml } from "../notify/html.js";
import type { AssetName } from "./assets.js";

/** The language a page is written in, for `<html lang dir>` (language.ts). */
export interface Speech {
  language: string;
  dir: "ltr" | "rtl";
}

const ENGLISH: Speech = { language: "en", dir: "ltr" };

export interface Shell {
  title: string;
  /** The name at the top of the page: the project's display name, or Gatehouse's. */
  brand: string;
  logoUrl?: string;
  bundle: Extract<AssetName, "auth.js" | "account.js">;
  /** What the page's script reads (docs/pages.md); never a secret. */
  config: Record<string, unknown>;
  speech: Speech;
  /** What the page says to a browser that runs no script. */
  noscript: string;
}

/**
 * The HTML every hosted page starts as: the brand, an empty main the bundle fills, and the
 * page's configuration as a JSON data block (not run as script, so the CSP allows it). Every
 * value is escaped for its place: text and attributes as HTML, the JSON against `</script>`.
 */
export function renderShell(shell: Shell): string {
  const logo = shell.logoUrl ? `<img class="logo" src="${escapeHtml(shell.logoUrl)}" alt="">` : "";
  return `<!doctype html>
${htmlTag(shell.speech)}
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(shell.title)} · ${escapeHtml(shell.brand)}</title>
<link rel="stylesheet" href="/assets/pages.css">
<script type="module" src="/assets/${shell.bundle}"></script>
</head>
<body>
<header class="brand">${logo}<span class="brand-name">${escapeHtml(shell.brand)}</span></header>
<main id="app" tabindex="-1"><noscript><p>${escapeHtml(shell.noscript)}</p></noscript></main>
<script type="application/json" id="gatehouse-page">${jsonForHtml(shell.config)}</script>
</body>
</html>
`;
}

/** A page in words, for what no script can fix: an unknown project, a bad link. */
export function renderMessage(
  title: string,
  message: string,
  brand = "Gatehouse",
  logoUrl = "",
  speech: Speech = ENGLISH,
): string {
  const logo = logoUrl ? `<img class="logo" src="${escapeHtml(logoUrl)}" alt="">` : "";
  return `<!doctype html>
${htmlTag(speech)}
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(brand)}</title>
<link rel="stylesheet" href="/assets/pages.css">
</head>
<body>
<header class="brand">${logo}<span class="brand-name">${escapeHtml(brand)}</span></header>
<main id="app"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></main>
</body>
</html>
`;
}

function htmlTag(speech: Speech): string {
  return `<html lang="${escapeHtml(speech.language)}" dir="${speech.dir === "rtl" ? "rtl" : "ltr"}">`;
}

// Inside a <script> element only `</script` (and `<!--`) can end it early; escaping every `<`
// (and the two line separators JSON allows but old parsers do not) covers both.
function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
