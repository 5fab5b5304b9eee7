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

/** Claims a hook cannot set or change: Gatehouse's own (API.md section 5). */
export const RESERVED_CLAIMS = new Set([
  "iss",
  "sub",
  "aud",
  "exp",
  "iat",
  "nbf",
  "jti",
  "sid",
  "project_id",
  "amr",
  "email",
  "app_metadata",
]);

export interface Hook {
  projectId: string;
  kind: HookKind;
  url: string;
  failurePolicy: FailurePolicy;
  createdAt: Date;
  updatedAt: Date;
}
