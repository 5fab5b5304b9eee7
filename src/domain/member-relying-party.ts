import { isIP } from "node:net";
import { DomainError } from "./errors.js";
import type { RelyingParty } from "./relying-party.js";

/**
 * The console's relying party, for members' passkeys: the host of PUBLIC_URL, and its origin
 * as the only one. One for the whole server (members sign in to the console only), so a member
 * passkey is never offered on a project's pages, which have relying parties of their own. As
 * for projects, WebAuthn needs https (or http on localhost) and a domain name.
 */
export function consoleRelyingParty(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  const host = url.hostname;
  const local = host === "localhost" || host.endsWith(".localhost");
  if ((url.protocol !== "https:" && !(url.protocol === "http:" && local)) || host.startsWith("[") || isIP(host) !== 0)
    throw new DomainError(
      "PASSKEYS_UNAVAILABLE",
      "member passkeys need the console on https (or http on localhost) with a domain name: set PUBLIC_URL",
    );
  return { id: host, origins: [url.origin] };
}
