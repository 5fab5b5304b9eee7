// SSO connections: OpenID Connect identity providers of a project (AuthService.SsoAuthorize).

/** The kinds of identity provider a connection may be (docs/sso-providers.md). */
export const SSO_PROVIDERS = ["oidc", "google", "gitlab", "github", "apple", "microsoft", "generic_oauth2"] as const;
export type SsoProvider = (typeof SSO_PROVIDERS)[number];

/** The kinds that are OpenID Connect: discovery by issuer, an ID token to verify. */
export function isOidcKind(provider: SsoProvider): boolean {
  return provider !== "github" && provider !== "generic_oauth2";
}

/** The fields of a generic OAuth 2.0 provider's userinfo answer Gatehouse reads. */
export const CLAIM_MAPPING_KEYS = ["id", "email", "email_verified", "name", "picture"] as const;
export type ClaimMapping = Partial<Record<(typeof CLAIM_MAPPING_KEYS)[number], string>>;

/** Where a provider without OpenID Connect discovery is reached. */
export interface OAuth2Endpoints {
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
}

export interface SsoConnection {
  id: string;
  organizationId: string;
  projectId: string;
  name: string;
  provider: SsoProvider;
  /** The OpenID Connect kinds: the issuer; the OAuth 2.0 kinds: empty. */
  issuer: string;
  /** The OAuth 2.0 kinds' endpoints; empty strings for `oidc`. */
  endpoints: OAuth2Endpoints;
  /** `generic_oauth2` only: which userinfo fields hold the identity. */
  claimMapping: ClaimMapping;
  /** `google` only: the Workspace domain accounts must belong to; empty for any. */
  hostedDomain: string;
  clientId: string;
  scopes: string[];
  /** The provider's emails count as verified whatever its `email_verified` claim says. */
  trustEmails: boolean;
  /** `microsoft` only: the Entra ID tenants (GUIDs, lower case) that may sign in; empty for any. */
  allowedTenants: string[];
  /** `apple` only: the Apple Developer team id and the Sign in with Apple key's id; empty otherwise. */
  teamId: string;
  keyId: string;
  /** Where its button sits on the hosted sign-in page: lower first, then oldest first. */
  position: number;
  createdAt: Date;
}

/**
 * Only the sign-in flow may hold the client secret, so it travels in its own type, read on
 * request (repos.ssoConnections.getWithSecret); nothing built from an SsoConnection can leak it.
 */
export interface SsoConnectionWithSecret extends SsoConnection {
  /** Empty for `apple`, whose client secret is signed from `privateKey` at each exchange. */
  clientSecret: string;
  /** `apple` only: the Sign in with Apple key, PKCS#8 PEM; empty for every other kind. */
  privateKey: string;
}

export const DEFAULT_SSO_SCOPES: readonly string[] = ["openid", "email", "profile"];

// RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** Undefined when the scope is a valid OAuth scope token; else what is wrong with it. */
export function checkScope(scope: string): string | undefined {
  return SCOPE_TOKEN.test(scope)
    ? undefined
    : "must be an OAuth scope: printable ASCII without spaces, quotes or backslashes";
}

/**
 * The scopes requested at sign-in: the default when none are given, `openid` always first
 * (without it the provider answers plain OAuth, with no ID token), duplicates dropped.
 */
export function resolveScopes(requested: readonly string[]): string[] {
  const given = requested.length > 0 ? requested : DEFAULT_SSO_SCOPES;
  return [...new Set(["openid", ...given])];
}

/**
 * Why a provider URL (an issuer, an endpoint) cannot be saved, as a sentence without a subject;
 * undefined when it can. The flows check it against the outbound rules (src/outbound/url-check.ts):
 * https, no private address by IP literal, http only where OUTBOUND_ALLOW_HOSTS allows.
 */
export type ProviderUrlCheck = (url: string) => string | undefined;

/** One SSO sign-in between SsoAuthorize and the callback (store/migrations: sso_flows). */
export interface SsoFlow {
  id: string;
  projectId: string;
  connectionId: string;
  /** Sealed with the flow id as associated data: they are sent on, so they cannot be hashed. */
  nonceSealed: string;
  verifierSealed: string;
  /** Where the callback sends the browser: the project's redirect_url or an allowed override. */
  redirectUrl: string;
  /** The application's S256 challenge for the code handover; null for tokens in the fragment. */
  codeChallenge: string | null;
  expiresAt: Date;
}

/** What a provider proved: who the user is there, and the email it vouches for. */
export interface ProvenIdentity {
  connectionId: string;
  issuer: string;
  subject: string;
  email: string;
}

/** An identity linked to a user. */
export interface LinkedIdentity extends ProvenIdentity {
  /** `idn_…`, given when it is linked; what UnlinkIdentity names. */
  id: string;
  userId: string;
  linkedAt: Date;
}

/** A linked identity as its user sees it: with the connection (the button) it signs in through. */
export interface UserIdentity extends LinkedIdentity {
  connectionName: string;
  connectionProvider: SsoProvider;
}

/** A proven identity waiting for SsoExchange. */
export interface SsoHandover extends ProvenIdentity {
  codeChallenge: string;
  /** A new user's metadata (Apple's name), sealed with the code's hash; null when there is none. */
  newUserMetadataSealed: string | null;
  expiresAt: Date;
}
