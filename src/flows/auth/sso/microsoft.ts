import { decodeJwt } from "jose";
import * as oidc from "openid-client";
import type { SsoConnection, SsoConnectionWithSecret } from "../../../domain/sso.js";
import type { OidcProviders } from "./providers.js";

// Microsoft Entra ID's multi-tenant endpoints (`common`, `organizations`) publish
// one discovery document for every tenant, whose issuer is a template:
// `https://login.microsoftonline.com/{tenantid}/v2.0`. Each ID token names its real tenant in
// `tid` and its issuer is the template with that id in it. openid-client compares the token's
// `iss` with the discovered issuer as it is, so such a sign-in is checked against the issuer
// of the token's own tenant instead (codeGrantFor), and the tenant against the connection's
// allowlist (tenantProblem). A single tenant's issuer is no template: plain OpenID Connect.

const PLACEHOLDER = "{tenantid}";
/** The tenant of personal Microsoft accounts. */
const CONSUMERS = "9188040d-6c67-4c5b-b112-36a304b66dad";
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a discovered issuer is Entra ID's template rather than one issuer. */
export function isTenantTemplate(issuer: string): boolean {
  return issuer.includes(PLACEHOLDER);
}

/**
 * Where a Microsoft issuer's discovery document is. Named in full, because openid-client
 * refuses a document whose issuer differs from the URL it was asked for, which the template
 * always does; discoveredIssuerProblem checks it instead.
 */
export function microsoftDiscoveryUrl(issuer: string): URL {
  return new URL(`${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`);
}

/**
 * Undefined when the discovery document read for `configured` may stand for it: its issuer is
 * `configured`, or a template that is `configured` with the tenant segment (`common`,
 * `organizations`, or a tenant's id) put back where `{tenantid}` is; `consumers` names the
 * personal accounts' tenant as its issuer.
 */
export function discoveredIssuerProblem(configured: string, discovered: string): string | undefined {
  const want = configured.replace(/\/+$/, "");
  if (discovered.replace(/\/+$/, "") === want) return undefined;
  // `consumers` is one tenant, personal accounts', and its document names that tenant's issuer.
  if (want.endsWith("/consumers/v2.0") && discovered === want.replace(/consumers\/v2\.0$/, `${CONSUMERS}/v2.0`))
    return undefined;
  const at = discovered.indexOf(PLACEHOLDER);
  if (at >= 0 && discovered.indexOf(PLACEHOLDER, at + PLACEHOLDER.length) < 0) {
    const before = discovered.slice(0, at);
    const after = discovered.slice(at + PLACEHOLDER.length).replace(/\/+$/, "");
    const segment = want.slice(before.length, want.length - after.length);
    if (want.startsWith(before) && want.endsWith(after) && /^[A-Za-z0-9.-]+$/.test(segment)) return undefined;
  }
  return `the discovery document's issuer ${discovered} is not ${configured}`;
}

type CodeGrant = typeof oidc.authorizationCodeGrant;

/**
 * The code exchange for a connection: openid-client's own, except for a templated issuer,
 * where the token answer is read once to learn its `tid`, then handed to openid-client again
 * with the issuer of that tenant, so every check (issuer, audience, nonce, expiry) runs on it.
 */
export function codeGrantFor(providers: OidcProviders, connection: SsoConnectionWithSecret): CodeGrant {
  if (connection.provider !== "microsoft") return oidc.authorizationCodeGrant;
  return async (config, currentUrl, checks, parameters, options) => {
    const template = config.serverMetadata().issuer;
    if (!isTenantTemplate(template))
      return oidc.authorizationCodeGrant(config, currentUrl, checks, parameters, options);
    const answer = await recordTokenAnswer(config, currentUrl, checks, parameters);
    // An error answer goes back to openid-client as it came, for its own words about it.
    const concrete =
      answer.status === 200
        ? await providers.forTenant(connection, template.replace(PLACEHOLDER, tenantOf(answer.body)))
        : config;
    const tokenEndpoint = concrete.serverMetadata().token_endpoint;
    // The answer is replayed, never fetched again: a code is spent once.
    concrete[oidc.customFetch] = async (url) => {
      if (url !== tokenEndpoint) throw new Error("only the token answer is replayed");
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    };
    return oidc.authorizationCodeGrant(concrete, currentUrl, checks, parameters, options);
  };
}

/**
 * Undefined when the ID token's tenant may sign in: its `iss` is the issuer of its `tid`, and
 * the `tid` is on the allowlist when the connection has one; else why not.
 */
export function tenantProblem(
  connection: Pick<SsoConnection, "provider" | "allowedTenants">,
  discoveredIssuer: string,
  claims: { iss: string; tid?: unknown },
): string | undefined {
  if (connection.provider !== "microsoft") return undefined;
  const tid = typeof claims.tid === "string" ? claims.tid.toLowerCase() : undefined;
  if (isTenantTemplate(discoveredIssuer)) {
    if (tid === undefined || claims.iss !== discoveredIssuer.replace(PLACEHOLDER, claims.tid as string))
      return "the ID token's issuer is not its tenant's";
  }
  if (connection.allowedTenants.length === 0) return undefined;
  if (tid === undefined) return "the ID token names no tenant (tid), and this connection admits only some";
  if (connection.allowedTenants.includes(tid)) return undefined;
  // The tenant is named only in the shape of a tenant id: nothing else of the token's text.
  return TENANT_ID.test(tid)
    ? `the Microsoft account's organization (tenant ${tid}) may not sign in to this application`
    : "the Microsoft account's organization may not sign in to this application";
}

/** Thrown by the recording fetch once the token answer is in hand: nothing else is sent. */
class Recorded extends Error {}

interface TokenAnswer {
  status: number;
  headers: Headers;
  body: string;
}

/**
 * Runs openid-client's exchange up to the token endpoint's answer (state, PKCE and the request
 * as usual), and stops there with the answer.
 */
async function recordTokenAnswer(
  config: oidc.Configuration,
  currentUrl: Parameters<CodeGrant>[1],
  checks: Parameters<CodeGrant>[2],
  parameters: Parameters<CodeGrant>[3],
): Promise<TokenAnswer> {
  let answer: TokenAnswer | undefined;
  // The configuration's own fetch (providers.ts): the outbound rules apply to this request too.
  const send = config[oidc.customFetch];
  if (send === undefined) throw new Error("the provider's configuration has no guarded fetch");
  config[oidc.customFetch] = async (url, init) => {
    const res = await send(url, init);
    answer = { status: res.status, headers: new Headers(res.headers), body: await res.text() };
    throw new Recorded();
  };
  try {
    await oidc.authorizationCodeGrant(config, currentUrl, checks, parameters);
  } catch (error) {
    if (answer === undefined) throw error;
  }
  if (answer === undefined) throw new Error("the token endpoint was not reached");
  return answer;
}

/** The `tid` of the answer's ID token, read before any check only to pick the issuer to check against. */
function tenantOf(body: string): string {
  let tid: unknown;
  try {
    const idToken = (JSON.parse(body) as { id_token?: unknown }).id_token;
    tid = typeof idToken === "string" ? decodeJwt(idToken).tid : undefined;
  } catch {
    throw new Error("the token answer holds no readable ID token");
  }
  if (typeof tid !== "string" || !TENANT_ID.test(tid)) throw new Error("the ID token names no tenant (tid)");
  return tid;
}

/**
 * Entra ID sends no `email_verified`. With the optional claim `xms_edov` configured on the app
 * registration it says whether the tenant proved it owns the address's domain, the one sign
 * that the address is the user's; without it, an address counts only with trust_emails.
 */
export function emailDomainVerified(
  connection: Pick<SsoConnection, "provider">,
  claims: Readonly<Record<string, unknown>>,
): boolean {
  return (
    connection.provider === "microsoft" &&
    (claims.xms_edov === true || claims.xms_edov === "1" || claims.xms_edov === 1)
  );
}
