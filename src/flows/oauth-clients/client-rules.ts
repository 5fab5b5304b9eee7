import { DomainError, validationFailed, type Violation } from "../../domain/errors.js";
import { checkImageUrl } from "../../domain/formats.js";
import { isIdOf } from "../../domain/ids.js";
import {
  DEFAULT_GRANT_TYPES,
  DEFAULT_SCOPES,
  DEVICE_CODE_GRANT,
  LOOPBACK_REDIRECT_HOSTS,
  OAUTH_GRANT_TYPES,
  OAUTH_SCOPES,
  type OAuthClientType,
  type OAuthGrantType,
  type OAuthScope,
} from "../../domain/oauth-clients.js";

// The rules of an OAuth client's settings (API.md section 7, issue 28), shared by Create and
// Update: Update checks the client as it would be after the change, so a rule between two
// fields (client_credentials and the type, a redirect URI for the code flow) holds whichever
// field the request changes.

export function oauthClientNotFound(): DomainError {
  return new DomainError("OAUTH_CLIENT_NOT_FOUND", "no such OAuth client in this organization");
}

/** An id that cannot be a client's answers as an unknown one, before any lookup. */
export function assertClientId(id: string): void {
  if (!isIdOf("oac", id)) throw oauthClientNotFound();
}

export function throwIfAny(violations: Violation[]): void {
  if (violations.length > 0) throw validationFailed(violations);
}

/** The name as stored: trimmed, 1 to 100 characters. */
export function clientName(name: string, violations: Violation[]): string {
  const trimmed = name.trim();
  if (trimmed === "") violations.push({ field: "name", description: "must not be blank" });
  else if ([...trimmed].length > 100) violations.push({ field: "name", description: "must be at most 100 characters" });
  return trimmed;
}

// RFC 8252 7.3: a native app's loopback redirect is plain http; 7.1: its private-use scheme is a
// reverse domain name, so it has a dot (`com.example.app:/callback`), which no web scheme
// (`javascript:`, `data:`, `file:`) has.
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/** Why `uri` cannot be a redirect URI (authorization or post-logout), or undefined. */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "must be an absolute URL";
  }
  // `#` alone leaves url.hash empty, so the text is what tells.
  if (uri.includes("#")) return "must not have a fragment";
  if (url.username !== "" || url.password !== "") return "must not contain credentials";
  if (url.protocol === "https:") return url.hostname === "" ? "must name a host" : undefined;
  if (url.protocol === "http:")
    return LOOPBACK_REDIRECT_HOSTS.has(url.hostname)
      ? undefined
      : "must be https (plain http only on a loopback host: 127.0.0.1, [::1], localhost)";
  return PRIVATE_USE_SCHEME.test(url.protocol)
    ? undefined
    : "must be https, http on a loopback host, or a private-use scheme in reverse-domain form (com.example.app:/callback)";
}

/** Each bad URI is its own violation, named by its index. */
export function redirectUriViolations(field: string, uris: readonly string[]): Violation[] {
  return uris.flatMap((uri, i) => {
    const problem = redirectUriProblem(uri);
    return problem ? [{ field: `${field}[${i}]`, description: problem }] : [];
  });
}

export function logoUriViolations(logoUri: string | undefined): Violation[] {
  if (logoUri === undefined) return [];
  const problem = checkImageUrl(logoUri);
  return problem ? [{ field: "logo_uri", description: problem }] : [];
}

/** Each unknown grant type or scope is its own violation, so the answer names it. */
export function vocabularyViolations(grantTypes: readonly string[], scopes: readonly string[]): Violation[] {
  const unknown = (field: string, values: readonly string[], known: readonly string[], what: string) =>
    values.flatMap((value, i) =>
      known.includes(value)
        ? []
        : [{ field: `${field}[${i}]`, description: `is not a ${what} ("${value}"); known: ${known.join(", ")}` }],
    );
  return [
    ...unknown("grant_types", grantTypes, OAUTH_GRANT_TYPES, "grant type"),
    ...unknown("scopes", scopes, OAUTH_SCOPES, "scope"),
  ];
}

export function grantTypesOrDefault(grantTypes: readonly string[]): OAuthGrantType[] {
  return grantTypes.length > 0 ? ([...grantTypes] as OAuthGrantType[]) : [...DEFAULT_GRANT_TYPES];
}

export function scopesOrDefault(scopes: readonly string[]): OAuthScope[] {
  return scopes.length > 0 ? ([...scopes] as OAuthScope[]) : [...DEFAULT_SCOPES];
}

/** The rules between fields, on the client as it is (or would be after an update). */
export function combinationViolations(client: {
  type: OAuthClientType;
  grantTypes: readonly OAuthGrantType[];
  redirectUris: readonly string[];
  allowMissingPkce: boolean;
}): Violation[] {
  const violations: Violation[] = [];
  const has = (grant: OAuthGrantType) => client.grantTypes.includes(grant);
  if (has("client_credentials") && client.type === "public")
    violations.push({
      field: "grant_types",
      description: "client_credentials is for confidential clients only: a public client has no secret",
    });
  if (has("refresh_token") && !has("authorization_code") && !has(DEVICE_CODE_GRANT))
    violations.push({
      field: "grant_types",
      description: `refresh_token needs authorization_code or ${DEVICE_CODE_GRANT} to issue the first refresh token`,
    });
  // A public client's code is protected by nothing else: anyone may present its client_id.
  if (client.allowMissingPkce && client.type === "public")
    violations.push({
      field: "allow_missing_pkce",
      description: "is for confidential clients only: a public client must always send PKCE",
    });
  if (has("authorization_code") && client.redirectUris.length === 0)
    violations.push({
      field: "redirect_uris",
      description: "is required when grant_types includes authorization_code",
    });
  return violations;
}
