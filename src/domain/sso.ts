// SSO connections: OpenID Connect identity providers of a project (AuthService.SsoAuthorize).

export interface SsoConnection {
  id: string;
  organizationId: string;
  projectId: string;
  name: string;
  issuer: string;
  clientId: string;
  scopes: string[];
  createdAt: Date;
}

/**
 * Only the sign-in flow may hold the client secret, so it travels in its own type, read on
 * request (repos.ssoConnections.getWithSecret); nothing built from an SsoConnection can leak it.
 */
export interface SsoConnectionWithSecret extends SsoConnection {
  clientSecret: string;
}

export const DEFAULT_SSO_SCOPES: readonly string[] = ["openid", "email", "profile"];

// RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** Undefined when the scope is a valid OAuth scope token; else what is wrong with it. */
export function checkScope(scope: string): string | undefined {
  return SCOPE_TOKEN.test(scope) ? undefined : "must be an OAuth scope: printable ASCII without spaces, quotes or backslashes";
}

/**
 * The scopes requested at sign-in: the default when none are given, `openid` always first
 * (without it the provider answers plain OAuth, with no ID token), duplicates dropped.
 */
export function resolveScopes(requested: readonly string[]): string[] {
  const given = requested.length > 0 ? requested : DEFAULT_SSO_SCOPES;
  return [...new Set(["openid", ...given])];
}
