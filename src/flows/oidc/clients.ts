import { randomBytes, timingSafeEqual } from "node:crypto";
import { hashToken } from "../../crypto/tokens.js";
import { LOOPBACK_REDIRECT_HOSTS, type StoredOAuthClient } from "../../domain/oauth-clients.js";

/**
 * What the engine is told the secret is when the one presented does not match: random per
 * process, so no presented value can equal it and the engine answers invalid_client.
 */
const UNMATCHABLE = `gcs_unmatchable_${randomBytes(32).toString("base64url")}`;

/** The request as far as client authentication reads it (the engine's koa context). */
export interface PresentingRequest {
  headers: Record<string, string | string[] | undefined>;
  oidc?: { params?: Record<string, unknown> };
}

/**
 * The client's metadata in the engine's terms (RFC 7591 names). Gatehouse stores a client's
 * secret as a hash only, as it does API keys; the engine compares plain secrets, so it is handed
 * the secret the request presents when that hashes to the stored one, and an unmatchable value
 * otherwise.
 */
export function clientMetadata(
  client: StoredOAuthClient,
  request: PresentingRequest | undefined,
): Record<string, unknown> {
  const confidential = client.type === "confidential";
  const redirectUris = client.redirectUris;
  return {
    client_id: client.id,
    client_name: client.name,
    ...(client.logoUri ? { logo_uri: client.logoUri } : {}),
    application_type: isNative(redirectUris) ? "native" : "web",
    redirect_uris: redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    grant_types: client.grantTypes,
    response_types: client.grantTypes.includes("authorization_code") ? ["code"] : [],
    scope: client.scopes.join(" "),
    token_endpoint_auth_method: confidential ? "client_secret_basic" : "none",
    ...(confidential ? { client_secret: presentedMatch(client, request) } : {}),
    id_token_signed_response_alg: "ES256",
    [ALLOW_MISSING_PKCE]: confidential && client.allowMissingPkce,
  };
}

/** The client metadata (beside RFC 7591's) that carries the legacy exception to PKCE to the engine. */
export const ALLOW_MISSING_PKCE = "allow_missing_pkce";

/**
 * OAuth 2.1: every authorization code request carries a PKCE challenge (S256; the engine
 * refuses `plain`), confidential clients' too, since a client secret does not stop a stolen
 * code from being injected into the client's own session. Only a confidential client given
 * the legacy exception may leave it out.
 */
export function pkceRequired(client: { clientAuthMethod: string; [ALLOW_MISSING_PKCE]?: unknown }): boolean {
  return client.clientAuthMethod === "none" || client[ALLOW_MISSING_PKCE] !== true;
}

function presentedMatch(client: StoredOAuthClient, request: PresentingRequest | undefined): string {
  const presented = request && presentedSecret(request);
  if (!presented || !client.secretHash) return UNMATCHABLE;
  const given = Buffer.from(hashToken(presented), "hex");
  const stored = Buffer.from(client.secretHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored) ? presented : UNMATCHABLE;
}

/** The secret of `client_secret_post`, or of `client_secret_basic` (RFC 6749 section 2.3.1). */
function presentedSecret(request: PresentingRequest): string | undefined {
  const posted = request.oidc?.params?.client_secret;
  if (typeof posted === "string" && posted) return posted;
  const authorization = request.headers.authorization;
  if (typeof authorization !== "string") return undefined;
  const [scheme, value] = authorization.split(" ");
  if (scheme?.toLowerCase() !== "basic" || !value) return undefined;
  const decoded = Buffer.from(value, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  try {
    return decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, "%20"));
  } catch {
    return undefined;
  }
}

/**
 * A native app (RFC 8252): a loopback http redirect, whose port the engine then ignores, or a
 * private-use scheme. Web clients' redirect URIs match exactly.
 */
function isNative(redirectUris: string[]): boolean {
  return redirectUris.some((uri) => {
    const url = URL.parse(uri);
    if (!url) return false;
    if (url.protocol === "http:") return LOOPBACK_REDIRECT_HOSTS.has(url.hostname);
    return url.protocol !== "https:";
  });
}
