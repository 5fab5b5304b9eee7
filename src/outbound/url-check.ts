import { isIP } from "node:net";
import type { AllowHosts } from "./allow-hosts.js";
import { unbracket } from "./allow-hosts.js";
import { isPublicAddress } from "./address-policy.js";

// The check of a webhook or hook URL when an admin saves it: what can be known without DNS.
// A DNS name may resolve anywhere, and resolve elsewhere tomorrow, so where it points is
// checked on every send instead (post.ts); this check refuses what no resolution can make
// acceptable. Each refusal is a sentence about the URL field, shown to the admin as the
// description of a VALIDATION_FAILED violation.

/** Longer URLs are refused: they are not webhook endpoints, and they are stored and listed. */
export const MAX_URL_LENGTH = 2048;

/** Why `raw` cannot be a webhook or hook URL, as a sentence without a subject; null when it can. */
export function checkOutboundUrl(raw: string, allow: AllowHosts): string | null {
  if (raw.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  // The URL parser drops tabs and newlines and trims spaces silently; what is stored and what
  // is called must be the same text.
  if (/[\s\x00-\x1f\x7f]/.test(raw)) return "must not contain spaces or control characters";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL such as https://example.com/webhooks";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be https";
  if (url.username !== "" || url.password !== "") return "must not carry credentials";
  // `url.hash` is empty for a bare `#` too; the serialisation keeps it.
  if (url.href.includes("#")) return "must not have a fragment";
  const literal = unbracket(url.hostname);
  if (isIP(literal) !== 0) {
    if (allow.allowsAddress(literal)) return null;
    if (!isPublicAddress(literal)) return "must not name a private address";
    return url.protocol === "https:" ? null : "must be https";
  }
  if (url.protocol === "http:" && !allow.allowsHostname(url.hostname) && !allow.hasAddresses) return "must be https";
  return null;
}
