import {
  checkScope,
  isOidcKind,
  type ClaimMapping,
  type OAuth2Endpoints,
  type ProviderUrlCheck,
  type SsoConnection,
  type SsoProvider,
} from "./sso.js";
import { createPrivateKey } from "node:crypto";
import type { Violation } from "./errors.js";

// The presets of SSO connections (issue 29): what each kind of provider needs, and what it gets
// by default. GitHub is OAuth 2.0 without OpenID Connect: no issuer, no ID token; the user comes
// from its API (docs/sso-providers.md).

/** GitHub.com's endpoints; GitHub Enterprise Server's are given on the connection. */
export const GITHUB_ENDPOINTS: OAuth2Endpoints = {
  authorizationUrl: "https://github.com/login/oauth/authorize",
  tokenUrl: "https://github.com/login/oauth/access_token",
  userinfoUrl: "https://api.github.com/user",
};

/** The issuers of the OpenID Connect presets, unless the connection names its own (a self-managed GitLab). */
export const PRESET_ISSUERS: Partial<Record<SsoProvider, string>> = {
  google: "https://accounts.google.com",
  gitlab: "https://gitlab.com",
  // Any work, school or personal Microsoft account; a tenant's own issuer admits its accounts only.
  microsoft: "https://login.microsoftonline.com/common/v2.0",
  apple: "https://appleid.apple.com",
};

/** A Workspace domain as Google writes it in `hd`: a DNS name in lower case. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** What a GitHub sign-in asks for: the profile and the addresses with their verification. */
export const GITHUB_SCOPES = ["read:user", "user:email"];

/** What a Sign in with Apple asks for: Apple knows no `profile`; `name` is told on the first authorization only. */
export const APPLE_SCOPES = ["openid", "name", "email"];

/** What a connection is made of, as the Account interface gives it. */
export interface PresetInput {
  provider: SsoProvider;
  issuer: string;
  endpoints: OAuth2Endpoints;
  scopes: string[];
  claimMapping: ClaimMapping;
  hostedDomain: string;
}

const FIELD = { authorizationUrl: "authorization_url", tokenUrl: "token_url", userinfoUrl: "userinfo_url" } as const;

/**
 * The connection's settings with its kind's defaults applied, or the violations: `oidc` needs an
 * issuer and no endpoints; `google` and `gitlab` default to their issuers (a self-managed
 * GitLab names its own), and `hosted_domain` is Google's alone; `github` takes no issuer and
 * GitHub's endpoints unless all three are given (GitHub Enterprise); `generic_oauth2` no issuer
 * and all three endpoints. Every URL passes `checkUrl` (the outbound rules: https to a public host
 * unless OUTBOUND_ALLOW_HOSTS says otherwise).
 */
export function resolvePreset(
  input: PresetInput,
  checkUrl: ProviderUrlCheck,
): { settings: PresetInput } | { violations: Violation[] } {
  const violations: Violation[] = [];
  const given = (Object.keys(FIELD) as Array<keyof OAuth2Endpoints>).filter((key) => input.endpoints[key] !== "");
  for (const key of given) {
    const problem = checkUrl(input.endpoints[key]);
    if (problem) violations.push({ field: FIELD[key], description: problem });
  }
  const issuer = input.issuer || (PRESET_ISSUERS[input.provider] ?? "");
  if (isOidcKind(input.provider)) {
    const problem = issuer === "" ? "is required for an oidc provider" : checkUrl(issuer);
    if (problem) violations.push({ field: "issuer", description: problem });
    for (const key of given)
      violations.push({ field: FIELD[key], description: `is read from the issuer's discovery for ${input.provider}` });
  } else if (input.issuer !== "") {
    violations.push({ field: "issuer", description: `is not used by ${input.provider}: give its endpoints instead` });
  }
  if (input.provider !== "generic_oauth2" && Object.keys(input.claimMapping).length > 0)
    violations.push({ field: "claim_mapping", description: "is for generic_oauth2 only" });
  if (input.hostedDomain !== "" && input.provider !== "google")
    violations.push({ field: "hosted_domain", description: "is for google only" });
  else if (input.hostedDomain !== "" && !DOMAIN.test(input.hostedDomain))
    violations.push({ field: "hosted_domain", description: "must be a domain name in lower case, e.g. example.com" });
  let endpoints = input.endpoints;
  if (input.provider === "github" && given.length === 0) endpoints = GITHUB_ENDPOINTS;
  else if (!isOidcKind(input.provider) && given.length < 3) {
    for (const key of Object.keys(FIELD) as Array<keyof OAuth2Endpoints>)
      if (input.endpoints[key] === "")
        violations.push({
          field: FIELD[key],
          description:
            input.provider === "github"
              ? "is required when another GitHub endpoint is given (GitHub Enterprise: give all three)"
              : "is required for generic_oauth2",
        });
  }
  if (violations.length > 0) return { violations };
  const defaults = input.provider === "github" ? GITHUB_SCOPES : input.provider === "apple" ? APPLE_SCOPES : undefined;
  const scopes = defaults && input.scopes.length === 0 ? defaults : input.scopes;
  return { settings: { ...input, issuer, endpoints, scopes } };
}

/**
 * The namespace of a connection's subjects, kept with each linked identity: the issuer for
 * OpenID Connect; for the OAuth 2.0 kinds, the origin that signs users in (GitHub's or the
 * Enterprise server's), so the same account reached by two connections is one identity.
 */
export function identityIssuer(connection: Pick<SsoConnection, "provider" | "issuer" | "endpoints">): string {
  if (isOidcKind(connection.provider)) return connection.issuer;
  return new URL(connection.endpoints.authorizationUrl).origin;
}

/**
 * The fields of a connection that depend on its kind, as they will be stored. A secret or key
 * already stored (and checked when it was given) is `null`: an update that leaves it as it is.
 */
export interface KindFields {
  provider: SsoProvider;
  clientSecret: string | null;
  allowedTenants: string[];
  teamId: string;
  keyId: string;
  privateKey: string | null;
}

/** An Entra ID tenant id (directory id): a GUID. */
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Apple's team ids and key ids: ten upper-case letters or digits. */
const APPLE_ID = /^[A-Z0-9]{10}$/;

/**
 * The violations of the kind-specific fields: `apple` signs its client secret from its key, so
 * it takes a team id, a key id and the key (an EC P-256 private key in PKCS#8 PEM, as Apple's
 * .p8 files are) and no client secret; every other kind needs a client secret and none of
 * Apple's fields; `allowed_tenants` (GUIDs) is Microsoft's alone.
 */
export function checkKindFields(input: KindFields): Violation[] {
  const violations: Violation[] = [];
  const apple = input.provider === "apple";
  if (apple && input.clientSecret !== null && input.clientSecret !== "")
    violations.push({
      field: "client_secret",
      description: "is not used by apple: Gatehouse signs its client secret with private_key",
    });
  if (!apple && input.clientSecret === "") violations.push({ field: "client_secret", description: "is required" });
  for (const [field, value] of [
    ["team_id", input.teamId],
    ["key_id", input.keyId],
  ] as const) {
    if (!apple && value !== "") violations.push({ field, description: "is for apple only" });
    else if (apple && value === "") violations.push({ field, description: "is required for apple" });
    else if (apple && !APPLE_ID.test(value))
      violations.push({ field, description: "must be Apple's 10-character id (upper-case letters and digits)" });
  }
  if (!apple && input.privateKey) violations.push({ field: "private_key", description: "is for apple only" });
  else if (apple && input.privateKey === "")
    violations.push({ field: "private_key", description: "is required for apple" });
  else if (apple && input.privateKey !== null) {
    const problem = checkAppleKey(input.privateKey);
    if (problem) violations.push({ field: "private_key", description: problem });
  }
  if (input.provider !== "microsoft" && input.allowedTenants.length > 0)
    violations.push({ field: "allowed_tenants", description: "is for microsoft only" });
  else
    input.allowedTenants.forEach((tenant, i) => {
      if (!TENANT_ID.test(tenant))
        violations.push({
          field: `allowed_tenants[${i}]`,
          description: "must be a tenant id: a GUID such as 9188040d-6c67-4c5b-b112-36a304b66dad",
        });
    });
  return violations;
}

/**
 * What a connection of any kind is checked for, created or updated: GitHub says itself which
 * addresses it verified, so `trust_emails` has no place there; each scope is a scope token.
 */
export function checkTrustAndScopes(input: {
  provider: SsoProvider;
  trustEmails: boolean;
  scopes: readonly string[];
}): Violation[] {
  const violations: Violation[] = [];
  if (input.provider === "github" && input.trustEmails)
    violations.push({
      field: "trust_emails",
      description: "is not used by github: GitHub says which addresses it verified",
    });
  input.scopes.forEach((scope, i) => {
    const problem = checkScope(scope);
    if (problem) violations.push({ field: `scopes[${i}]`, description: problem });
  });
  return violations;
}

/** The Entra ID authorities that admit accounts of more than one tenant (or any personal account). */
const MULTI_TENANT_AUTHORITIES = new Set(["common", "organizations", "consumers"]);

/**
 * nOAuth: on a multi-tenant authority anyone can make an Entra ID tenant and give its user any
 * `email` (the attribute is not verified), so `trust_emails` there would let a stranger's
 * tenant claim a customer's address and sign in as them. A Microsoft connection on `common`,
 * `organizations` or `consumers` may trust emails only with `allowed_tenants`.
 */
export function checkMicrosoftTrust(input: {
  provider: SsoProvider;
  issuer: string;
  trustEmails: boolean;
  allowedTenants: readonly string[];
}): Violation[] {
  if (input.provider !== "microsoft" || !input.trustEmails || input.allowedTenants.length > 0) return [];
  let authority: string;
  try {
    authority = new URL(input.issuer).pathname.split("/")[1]?.toLowerCase() ?? "";
  } catch {
    return []; // the issuer's own violation says what is wrong with it
  }
  if (!MULTI_TENANT_AUTHORITIES.has(authority)) return [];
  return [
    {
      field: "trust_emails",
      description: `needs allowed_tenants on the multi-tenant authority ${authority}: any Entra ID tenant can give its users any email address`,
    },
  ];
}

/** Tenant ids as Microsoft writes them in `tid`: lower case, each once. */
export function normalizeTenants(tenants: readonly string[]): string[] {
  return [...new Set(tenants.map((t) => t.toLowerCase()))];
}

/** Undefined when `pem` is an EC P-256 private key in PKCS#8 PEM; else what is wrong with it. */
function checkAppleKey(pem: string): string | undefined {
  const wrong = "must be the .p8 file's text: an EC P-256 private key in PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)";
  if (!pem.trim().startsWith("-----BEGIN PRIVATE KEY-----")) return wrong;
  try {
    const key = createPrivateKey({ key: pem, format: "pem" });
    if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") return wrong;
  } catch {
    return wrong;
  }
  return undefined;
}
