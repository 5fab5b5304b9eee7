// Synchronous hooks (API.md section 7): at most one per kind per project, asked during a
// request, each call bounded by HOOK_TIMEOUT_MS and a project's calls at once by
// HOOK_MAX_IN_FLIGHT (src/config.ts).
export const HOOK_KINDS = ["before_user_created", "custom_access_token"] as const;
export type HookKind = (typeof HOOK_KINDS)[number];

export const FAILURE_POLICIES = ["closed", "open"] as const;
export type FailurePolicy = (typeof FAILURE_POLICIES)[number];

/**
 * When a hook fails or times out: a signup the application could not vet is refused (closed),
 * while a token without the application's extra claims is still a valid token (open), as
 * Supabase's hooks behave for their kinds.
 */
export const DEFAULT_FAILURE_POLICY: Record<HookKind, FailurePolicy> = {
  before_user_created: "closed",
  custom_access_token: "open",
};

/** HOOK_TIMEOUT_MS's default: a person is waiting for the answer. */
export const DEFAULT_HOOK_TIMEOUT_MS = 2_000;

/**
 * HOOK_MAX_IN_FLIGHT's default. A call holds no database connection (hooked-transaction.ts),
 * only the request waiting for it and one outbound connection: 16 let a project whose hook
 * answers in 100 ms take about 160 hooked sign-ins a second on one instance, and one whose hook
 * times out keep at most 16 of the instance's requests waiting, whatever its traffic.
 */
export const DEFAULT_HOOK_MAX_IN_FLIGHT = 16;

/** The most JSON the claims a custom_access_token hook adds may take: they travel in every token. */
export const MAX_CUSTOM_CLAIMS_BYTES = 4096;

/**
 * Claims a custom_access_token hook cannot set or change: whatever a relying party or resource
 * server could take as Gatehouse's word rather than the application's (issue 46: a hook's
 * `client_id`, `scope`, `acr` or `org_id` was shown by VerifyToken as if Gatehouse had set it).
 * Gatehouse's own keep their values; the others stay absent. Compared without regard to case
 * (a consumer that folds case must not find `ACR` to be `acr`); see also
 * RESERVED_CLAIM_PREFIXES. Every name here is lower case.
 */
export const RESERVED_CLAIMS: ReadonlySet<string> = new Set([
  // Registered JWT claims (RFC 7519 section 4.1).
  "iss",
  "sub",
  "aud",
  "exp",
  "nbf",
  "iat",
  "jti",
  // Gatehouse's own (API.md sections 5 to 8): the session, the project, the user.
  "sid",
  "project_id",
  "email",
  "app_metadata",
  "is_anonymous",
  // The OpenID Connect ID token's (OIDC Core section 2, 3.1.3.6, 3.3.2.11, 5.6.2; FAPI's s_hash).
  "auth_time",
  "nonce",
  "azp",
  "at_hash",
  "c_hash",
  "s_hash",
  "_claim_names",
  "_claim_sources",
  // OpenID Connect standard claims (OIDC Core section 5.1): the person as an identity provider vouches for them.
  "name",
  "given_name",
  "family_name",
  "middle_name",
  "nickname",
  "preferred_username",
  "profile",
  "picture",
  "website",
  "email_verified",
  "gender",
  "birthdate",
  "zoneinfo",
  "locale",
  "phone_number",
  "phone_number_verified",
  "phone",
  "phone_verified",
  "address",
  "updated_at",
  // OAuth access tokens (RFC 9068 section 2.2, RFC 8693 section 4, RFC 9396 section 9.1) and
  // their proof of possession (RFC 7800, RFC 9449 section 6, RFC 8705 section 3.1).
  "client_id",
  "scope",
  "scp",
  "authorization_details",
  "cnf",
  "token_type",
  "token_use",
  // Delegation and impersonation (RFC 8693 section 4.1, 4.4; API.md section 8's `act`).
  "act",
  "may_act",
  "impersonator",
  // Assurance (OIDC Core section 2; NIST SP 800-63's levels; OpenID Connect for Identity Assurance).
  "acr",
  "amr",
  "aal",
  "ial",
  "verified_claims",
  // Security event and logout tokens (RFC 8417 section 2.2, OIDC Back-Channel Logout section 2.4).
  "events",
  "toe",
  "txn",
  // Organizations in a project (API.md section 8); any `org_` name besides, by prefix.
  "org_id",
  "org_role",
  "org_permissions",
  // Not a claim: read into a plain object by assignment, it would set the object's prototype.
  "__proto__",
]);

/** Prefixes no claim a hook adds may start with (in any case): organization claims (API.md section 8). */
export const RESERVED_CLAIM_PREFIXES: readonly string[] = ["org_"];

/** Whether a hook may not set the claim `name` (RESERVED_CLAIMS, RESERVED_CLAIM_PREFIXES). */
export function isReservedClaim(name: string): boolean {
  const folded = name.toLowerCase();
  return RESERVED_CLAIMS.has(folded) || RESERVED_CLAIM_PREFIXES.some((prefix) => folded.startsWith(prefix));
}

export interface Hook {
  projectId: string;
  kind: HookKind;
  url: string;
  failurePolicy: FailurePolicy;
  createdAt: Date;
  updatedAt: Date;
}
