import { checkImageUrl } from "../domain/formats.js";
import type { NodeResponse } from "../transport/error-body.js";

/**
 * The headers every hosted page carries. Scripts, styles and calls come from Gatehouse itself
 * only, with no inline script or style at all, so an injected tag has nothing to run; the page
 * cannot be framed (clickjacking a password form); and no Referer leaves it, since the page's
 * own address may hold a reset or sign-in token until the script removes it. Images may also
 * come from the project's logo origin, and `data:` for the TOTP QR code. Workers (the bot
 * check's solver, docs/pages.md "Bot protection") come from Gatehouse too, never from blob:.
 * `httpsImages`: the consent page, whose OAuth client's logo may be on any https origin, known
 * only once the page has asked the engine which client it is.
 */
export function setPageHeaders(res: NodeResponse, logoUrl = "", httpsImages = false): void {
  const logoOrigin = originOf(logoUrl);
  const images = ["'self'", "data:", ...(logoOrigin ? [logoOrigin] : []), ...(httpsImages ? ["https:"] : [])];
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${images.join(" ")}`,
    "connect-src 'self'",
    "worker-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
  res.setHeader("content-security-policy", csp);
  res.setHeader("x-frame-options", "DENY");
  res.setHeader("referrer-policy", "no-referrer");
  res.setHeader("cache-control", "no-store");
}

/**
 * The logo's origin as a CSP source, or none. UpdateProject refuses a logo URL whose host is not
 * a plain DNS name or IP literal (checkImageUrl); a value stored before that rule is checked
 * again here, so no stored URL can put a wildcard, a `;` (a new directive) or a `,` (a second
 * policy) into the header: such a logo is simply not allowed to load.
 */
function originOf(url: string): string | undefined {
  if (url === "" || checkImageUrl(url) !== undefined) return undefined;
  return new URL(url).origin;
}
