import type { MemberRole } from "../../domain/account.js";
import { DomainError, type Violation } from "../../domain/errors.js";
import type { OAuth2Endpoints, ProviderUrlCheck, SsoConnection, SsoProvider } from "../../domain/sso.js";
import { GITHUB_ENDPOINTS, PRESET_ISSUERS } from "../../domain/sso-providers.js";
import type { AllowHosts } from "../../outbound/allow-hosts.js";
import { checkOutboundUrl } from "../../outbound/url-check.js";

// The rules about a connection's URLs that Create and UpdateSsoConnection share: the URLs obey
// the outbound rules (the server sends requests there, with the client secret), only an admin
// chooses them, and the stored secret is never sent to a URL it was not given for.

/** The provider URL check of the flows: the outbound rules of webhooks and hooks (url-check.ts). */
export function providerUrlCheck(allow: AllowHosts): ProviderUrlCheck {
  return (url) => checkOutboundUrl(url, allow) ?? undefined;
}

/** A connection's URLs, by their API names. */
export function urlsOf(connection: { issuer: string; endpoints: OAuth2Endpoints }): Record<string, string> {
  return {
    issuer: connection.issuer,
    authorization_url: connection.endpoints.authorizationUrl,
    token_url: connection.endpoints.tokenUrl,
    userinfo_url: connection.endpoints.userinfoUrl,
  };
}

/** The URL fields whose value differs between two states of a connection. */
export function changedUrls(
  before: { issuer: string; endpoints: OAuth2Endpoints },
  after: { issuer: string; endpoints: OAuth2Endpoints },
): string[] {
  const [old, now] = [urlsOf(before), urlsOf(after)];
  return Object.keys(old).filter((field) => old[field] !== now[field]);
}

/**
 * Who may choose where the server connects: an admin, as for webhooks and hooks (security.md,
 * "Single sign-on"). A developer makes connections on a preset's own URLs (Google, GitLab.com,
 * Microsoft's common authority, Apple, GitHub.com) and changes anything but the URLs.
 */
export function requireAdminForUrls(role: MemberRole, urlsChosen: boolean): void {
  if (role !== "admin" && urlsChosen)
    throw new DomainError(
      "ROLE_REQUIRED",
      "choosing a connection's issuer or endpoint URLs needs the admin role (a developer may use a preset's own)",
    );
}

/** Whether a new connection names URLs of its own rather than its preset's. */
export function choosesUrls(input: { provider: SsoProvider; issuer: string; endpoints: OAuth2Endpoints }): boolean {
  if (input.issuer !== "" && input.issuer !== PRESET_ISSUERS[input.provider]) return true;
  const given = Object.values(input.endpoints).some((url) => url !== "");
  return (
    given &&
    (input.provider !== "github" ||
      (Object.keys(GITHUB_ENDPOINTS) as Array<keyof OAuth2Endpoints>).some(
        (key) => input.endpoints[key] !== GITHUB_ENDPOINTS[key],
      ))
  );
}

/**
 * The stored secret goes to the token endpoint the connection names: an update that moves the
 * issuer or an endpoint must give the secret again (Apple's key, from which its secret is
 * signed), or the next sign-in would post the stored secret to a URL it was never given for.
 */
export function secretAgainForMovedUrls(
  provider: SsoProvider,
  moved: string[],
  given: { clientSecret?: string; privateKey?: string },
): Violation[] {
  if (moved.length === 0) return [];
  const [field, value] =
    provider === "apple"
      ? (["private_key", given.privateKey] as const)
      : (["client_secret", given.clientSecret] as const);
  if (value !== undefined && value !== "") return [];
  return [
    {
      field,
      description: `must be given again when ${moved.join(", ")} changes: the stored one is never sent to a new URL`,
    },
  ];
}

/**
 * For the audit log: `moved_urls` names the URL fields whose value changed, and each has
 * `<field>_hosts`: its old and new host (never the rest of the URL). Empty when nothing moved.
 */
export function movedHosts(before: SsoConnection, after: SsoConnection): Record<string, string[]> {
  const [old, now] = [urlsOf(before), urlsOf(after)];
  const host = (url: string) => {
    try {
      return url === "" ? "" : new URL(url).host;
    } catch {
      return "";
    }
  };
  const moved = changedUrls(before, after);
  if (moved.length === 0) return {};
  return {
    moved_urls: moved,
    ...Object.fromEntries(moved.map((field) => [`${field}_hosts`, [host(old[field]), host(now[field])]])),
  };
}
