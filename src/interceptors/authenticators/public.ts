import type { Authenticator } from "./authenticator.js";
import { CONSOLE_HINT, requireOrigin } from "./origin.js";

/**
 * No credential (account login, invitation acceptance, and a member sign-in's MFA steps, which
 * name their member by an mfa_token): the Account interface still answers the console's pages
 * only, so a foreign origin is refused before any work.
 */
export function publicAuthenticator(deps: { consoleOrigins: readonly string[] }): Authenticator {
  return {
    presented: () => true,
    async authenticate(request) {
      requireOrigin(request.record, request.origin, deps.consoleOrigins, CONSOLE_HINT);
      return {};
    },
  };
}
