import { isIP } from "node:net";
import type { Project } from "./account.js";
import { DomainError } from "./errors.js";

/** Who passkeys are made for: the relying-party id, and the origins whose pages may use them. */
export interface RelyingParty {
  id: string;
  origins: string[];
}

/**
 * The host a page at `origin` may name as its relying-party id, or null when WebAuthn is not
 * open to it: browsers allow it in secure contexts only (https, or http on localhost), and an
 * IP address is never a relying-party id.
 */
function servingHost(origin: string): string | null {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  const host = url.hostname;
  const local = host === "localhost" || host.endsWith(".localhost");
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) return null;
  if (host.startsWith("[") || isIP(host) !== 0) return null;
  return host;
}

function within(host: string, rpId: string): boolean {
  return host === rpId || host.endsWith(`.${rpId}`);
}

/**
 * The project's relying party for one ceremony (docs/passkeys.md). The id is the project's
 * `passkey_rp_id` when set; else the host of the request's origin when that is one of the
 * project's (its allowed origins or the hosted pages'); else the hosted pages' host; else the
 * project's one eligible origin. The origins are every eligible origin of the project under
 * that id, so a passkey made on one subdomain signs in on its siblings when the id is their
 * parent. None: FAILED_PRECONDITION PASSKEYS_UNAVAILABLE.
 */
export function relyingParty(project: Project, publicUrl: string, requestOrigin?: string): RelyingParty {
  const hosted = new URL(publicUrl).origin;
  // Each origin that can serve passkeys, with the host it serves from.
  const hostOf = new Map<string, string>();
  for (const origin of new Set([hosted, ...project.allowedOrigins])) {
    const host = servingHost(origin);
    if (host !== null) hostOf.set(origin, host);
  }
  const eligible = [...hostOf.keys()];
  let id = project.passkeyRpId;
  if (id === "") {
    const asked = requestOrigin?.toLowerCase();
    const chosen =
      asked !== undefined && eligible.includes(asked)
        ? asked
        : eligible.includes(hosted)
          ? hosted
          : eligible.length === 1
            ? eligible[0]
            : undefined;
    id = chosen === undefined ? "" : (hostOf.get(chosen) ?? "");
  }
  const origins = id === "" ? [] : [...hostOf].filter(([, host]) => within(host, id)).map(([origin]) => origin);
  if (origins.length === 0) {
    throw new DomainError(
      "PASSKEYS_UNAVAILABLE",
      id === ""
        ? "passkeys need an https origin (or http on localhost) with a domain name: set the project's allowed_origins or passkey_rp_id"
        : `no origin of this project is under the passkey relying-party id ${id}`,
    );
  }
  return { id, origins };
}

/**
 * The origins the project's hosted pages are served from (docs/passkeys.md, "A host of the
 * project's own"): Gatehouse's own (PUBLIC_URL's) and, when the project's `passkey_rp_id` is a
 * domain of its own (PUBLIC_URL's host is not under it), each of its allowed origins under that
 * id that can serve passkeys: names pointed at Gatehouse, so that the project's passkeys live
 * under a relying party no other project shares. The pages' credential is honoured from these
 * origins only, for this project.
 */
export function pagesOrigins(project: Project, publicUrl: string): string[] {
  const hosted = new URL(publicUrl).origin;
  const id = project.passkeyRpId;
  const hostedHost = servingHost(hosted);
  if (id === "" || (hostedHost !== null && within(hostedHost, id))) return [hosted];
  const own = project.allowedOrigins.filter((o) => {
    const host = servingHost(o);
    return host !== null && within(host, id);
  });
  return [...new Set([hosted, ...own])];
}
