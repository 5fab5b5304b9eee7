// The OpenID Provider's clients and the consent users give them (issue 28, API.md section 7).

export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** Grant types a client may be allowed; `authorization_code` implies the `code` response type. */
export const OAUTH_GRANT_TYPES = [
  "authorization_code",
  "refresh_token",
  "client_credentials",
  DEVICE_CODE_GRANT,
] as const;
export type OAuthGrantType = (typeof OAUTH_GRANT_TYPES)[number];

/**
 * The scopes the provider knows; `openid` makes a request an OpenID Connect one. `app_metadata`
 * releases the user's admin-written app_metadata as a claim, to the clients allowed it.
 */
export const OAUTH_SCOPES = ["openid", "email", "profile", "offline_access", "app_metadata"] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

export const DEFAULT_GRANT_TYPES: OAuthGrantType[] = ["authorization_code", "refresh_token"];
/** What a client may ask for unless its scopes are named: all but app_metadata, which is asked for by name. */
export const DEFAULT_SCOPES: OAuthScope[] = ["openid", "email", "profile", "offline_access"];

/** Clients per project: enough for every app of a product, small enough to list on a page. */
export const MAX_OAUTH_CLIENTS_PER_PROJECT = 50;

export type OAuthClientType = "confidential" | "public";

/** RFC 8252 7.3: the hosts a native app's plain-http loopback redirect may name (any port). */
export const LOOPBACK_REDIRECT_HOSTS: ReadonlySet<string> = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** A client as the Account interface shows it (never its secret). */
export interface OAuthClient {
  id: string;
  organizationId: string;
  projectId: string;
  name: string;
  type: OAuthClientType;
  /** The first 8 characters of the secret; null for a public client. */
  secretHint: string | null;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: OAuthGrantType[];
  scopes: OAuthScope[];
  firstParty: boolean;
  /** Empty when none. */
  logoUri: string;
  /**
   * The legacy exception to PKCE: a confidential client that may start the code flow without a
   * code_challenge. Always false for a public client.
   */
  allowMissingPkce: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** A client with the hash of its secret, as the provider's client lookup needs it. */
export interface StoredOAuthClient extends OAuthClient {
  /** SHA-256 hex of the secret; null for a public client. */
  secretHash: string | null;
}

/** The scopes a user granted a client, remembered until revoked. */
export interface OAuthConsent {
  userId: string;
  clientId: string;
  scopes: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** A consent with what ListAuthorizedApps shows of its client. */
export interface AuthorizedApp extends OAuthConsent {
  name: string;
  logoUri: string;
  firstParty: boolean;
}
