import { compactVerify, createLocalJWKSet, errors as joseErrors, type JSONWebKeySet } from "jose";
import * as oidc from "openid-client";
import type { Clock } from "../../../domain/clock.js";
import type { SsoConnection, SsoConnectionWithSecret, SsoProvider } from "../../../domain/sso.js";
import type { Logger } from "../../../log.js";
import type { AllowHosts } from "../../../outbound/allow-hosts.js";
import type { Resolver } from "../../../outbound/guarded-connection.js";
import { guardedFetch, OutboundFailure, type GuardedFetch } from "../../../outbound/request.js";
import { createAppleClientSecrets } from "./apple-client-secret.js";
import { discoveredIssuerProblem, microsoftDiscoveryUrl } from "./microsoft.js";
import { failureDetail, logText, ssoFailed } from "./refusals.js";

/**
 * OpenID providers as openid-client configurations. Each issuer's discovery document and
 * signing keys are cached for a bounded time on the injected clock; a token signed with a key
 * the cache does not hold makes the keys be fetched again at once (a provider rotated them).
 */
export interface OidcProviders {
  /**
   * The only way any request reaches an identity provider: the outbound rules of webhooks and
   * hooks (src/outbound/request.ts), a 10-second deadline and a 128 KiB cap on each answer.
   */
  fetch: GuardedFetch;
  /** For authorization URLs: no client secret involved. SSO_FAILED when discovery fails. */
  forAuthorization(connection: SsoConnection): Promise<oidc.Configuration>;
  /** For one code exchange: the only configuration that holds the client secret, dropped after use. */
  forExchange(connection: SsoConnectionWithSecret): Promise<oidc.Configuration>;
  /** forExchange, expecting ID tokens of one tenant of a templated Microsoft issuer (microsoft.ts). */
  forTenant(connection: SsoConnectionWithSecret, issuer: string): Promise<oidc.Configuration>;
  /**
   * Checks an ID token's signature against the provider's JWKS. openid-client checks the
   * claims (issuer, audience, nonce, expiry) but, for a token from the token endpoint, trusts
   * TLS instead of the signature; Gatehouse checks both. Throws when it does not verify.
   */
  verifyIdTokenSignature(connection: SsoConnection, idToken: string): Promise<void>;
  /** Forgets what is cached of an issuer: its next sign-in reads everything again. */
  forget(issuer: string): void;
}

/** How long a discovery document and its keys are trusted before they are read again. */
const METADATA_TTL_MS = 10 * 60_000;
/** Issuers kept at most (least recently fetched out first). */
const MAX_ISSUERS = 1_000;
/** Every request to a provider is bounded, so a stalled provider cannot hold a sign-in. */
const TIMEOUT_SECONDS = 10;
/** No discovery document, key set, token or user answer is larger: the rest is not read. */
export const PROVIDER_BODY_BYTES = 128 * 1024;
/** GitHub's API refuses a request without one. */
const USER_AGENT = "Gatehouse";
/** ID token algorithms checked against the JWKS: asymmetric only, never `none`. */
const ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];

interface Entry {
  metadata: oidc.ServerMetadata;
  fetchedAt: number;
  keys?: { jwks: JSONWebKeySet; fetchedAt: number };
}

export interface ProviderOutbound {
  /** OUTBOUND_ALLOW_HOSTS: the only way to a provider on a private address, or over plain http. */
  allow: AllowHosts;
  logger: Logger;
  /** The resolver; the system's unless a test sets one. */
  resolve?: Resolver;
}

export function createOidcProviders(clock: Clock, outbound: ProviderOutbound): OidcProviders {
  const cache = new Map<string, Entry>();
  const now = () => clock.now().getTime();
  const appleSecrets = createAppleClientSecrets(clock);
  const providerFetch = guardedFetch({
    timeoutMs: TIMEOUT_SECONDS * 1000,
    allow: outbound.allow,
    maxBodyBytes: PROVIDER_BODY_BYTES,
    resolve: outbound.resolve,
    userAgent: USER_AGENT,
  });

  async function entryOf(issuer: string, clientId: string, provider: SsoProvider): Promise<Entry> {
    const hit = cache.get(issuer);
    if (hit && now() - hit.fetchedAt < METADATA_TTL_MS) return hit;
    let discovered: oidc.Configuration;
    try {
      // Microsoft's multi-tenant issuers publish a templated issuer (microsoft.ts). Plain http
      // is left to the outbound rules: only OUTBOUND_ALLOW_HOSTS admits it.
      discovered = await oidc.discovery(
        provider === "microsoft" ? microsoftDiscoveryUrl(issuer) : new URL(issuer),
        clientId,
        undefined,
        undefined,
        { [oidc.customFetch]: providerFetch, execute: [oidc.allowInsecureRequests], timeout: TIMEOUT_SECONDS },
      );
    } catch (error) {
      const detail = failureDetail(error);
      outbound.logger.warn({ issuer, reason: detail }, "sso discovery failed");
      throw ssoFailed("discovery", detail);
    }
    const problem = provider === "microsoft" && discoveredIssuerProblem(issuer, discovered.serverMetadata().issuer);
    if (problem) {
      outbound.logger.warn({ issuer, reason: logText(problem) }, "sso discovery refused");
      throw ssoFailed("discovery", problem);
    }
    const entry: Entry = { metadata: discovered.serverMetadata(), fetchedAt: now() };
    cache.delete(issuer);
    cache.set(issuer, entry);
    const oldest = cache.keys().next();
    if (cache.size > MAX_ISSUERS && !oldest.done) cache.delete(oldest.value);
    return entry;
  }

  function configure(connection: SsoConnection, entry: Entry, secret?: string): oidc.Configuration {
    const config =
      secret === undefined
        ? new oidc.Configuration(entry.metadata, connection.clientId)
        : new oidc.Configuration(
            entry.metadata,
            connection.clientId,
            { client_secret: secret },
            clientAuth(entry.metadata, secret),
          );
    config[oidc.customFetch] = providerFetch;
    // The outbound rules decide which URL may be plain http (OUTBOUND_ALLOW_HOSTS only).
    oidc.allowInsecureRequests(config);
    config.timeout = TIMEOUT_SECONDS;
    return config;
  }

  async function keysOf(entry: Entry, refresh: boolean): Promise<JSONWebKeySet> {
    if (!refresh && entry.keys && now() - entry.keys.fetchedAt < METADATA_TTL_MS) return entry.keys.jwks;
    const uri = entry.metadata.jwks_uri;
    if (!uri) throw ssoFailed("id_token_signature", "the discovery document names no jwks_uri");
    // Through the outbound rules like every other request: a jwks_uri is the provider's to name.
    const res = await providerFetch(uri, { headers: { accept: "application/json" } });
    if (!res.ok) throw new OutboundFailure(`answered HTTP ${res.status}`, `the JWKS answered HTTP ${res.status}`);
    let jwks: JSONWebKeySet;
    try {
      jwks = (await res.json()) as JSONWebKeySet;
    } catch {
      throw new OutboundFailure("the answer is not JSON", "the JWKS is not JSON");
    }
    if (!Array.isArray(jwks?.keys)) throw new OutboundFailure("the answer is not a JWKS", "the JWKS has no keys");
    entry.keys = { jwks, fetchedAt: now() };
    return jwks;
  }

  return {
    fetch: providerFetch,
    async forAuthorization(connection) {
      return configure(connection, await entryOf(connection.issuer, connection.clientId, connection.provider));
    },
    async forExchange(connection) {
      const entry = await entryOf(connection.issuer, connection.clientId, connection.provider);
      if (connection.provider !== "apple") return configure(connection, entry, connection.clientSecret);
      // Apple's client secret is a JWT signed from the connection's key (apple-client-secret.ts).
      return configure(connection, entry, appleSecrets.secretFor(connection));
    },
    async forTenant(connection, issuer) {
      const entry = await entryOf(connection.issuer, connection.clientId, connection.provider);
      return configure(connection, { ...entry, metadata: { ...entry.metadata, issuer } }, connection.clientSecret);
    },
    async verifyIdTokenSignature(connection, idToken) {
      const entry = await entryOf(connection.issuer, connection.clientId, connection.provider);
      const fresh = entry.keys === undefined || now() - entry.keys.fetchedAt >= METADATA_TTL_MS;
      const verify = async (jwks: JSONWebKeySet) => {
        await compactVerify(idToken, createLocalJWKSet(jwks), { algorithms: ALGORITHMS });
      };
      try {
        await verify(await keysOf(entry, false));
      } catch (error) {
        // A key the cache lacks: the provider rotated its keys. Read them once more.
        if (!(error instanceof joseErrors.JWKSNoMatchingKey) || fresh) throw error;
        await verify(await keysOf(entry, true));
      }
    },
    forget(issuer) {
      cache.delete(issuer);
    },
  };
}

/** RFC 6749's default method, unless the provider lists only client_secret_post. */
function clientAuth(metadata: oidc.ServerMetadata, secret: string): oidc.ClientAuth {
  const methods = metadata.token_endpoint_auth_methods_supported;
  return !methods || methods.includes("client_secret_basic")
    ? oidc.ClientSecretBasic(secret)
    : oidc.ClientSecretPost(secret);
}
