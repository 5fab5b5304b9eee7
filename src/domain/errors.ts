// The one vocabulary of error reasons (API.md section 3). Reasons are added, never renamed:
// clients branch on them. The mapping to status codes lives in interceptors/error-codes.ts.
export const REASONS = [
  "VALIDATION_FAILED",
  "WEAK_PASSWORD",
  "REDIRECT_NOT_ALLOWED",
  "INVALID_CURSOR",
  "MISSING_API_KEY",
  "INVALID_API_KEY",
  "MISSING_MANAGEMENT_TOKEN",
  "INVALID_MANAGEMENT_TOKEN",
  "MISSING_ACCESS_TOKEN",
  "INVALID_ACCESS_TOKEN",
  "INVALID_CREDENTIALS",
  "USER_DISABLED",
  "INVALID_REFRESH_TOKEN",
  "REFRESH_TOKEN_REUSED",
  "INVALID_CODE",
  "CODE_EXPIRED",
  "INVALID_LINK",
  "INVALID_MFA_TOKEN",
  "SCOPE_REQUIRED",
  "ROLE_REQUIRED",
  "ADMIN_REQUIRED",
  "MFA_REQUIRED_BY_PROJECT",
  "MFA_NOT_ENROLLED",
  "MFA_ALREADY_ENROLLED",
  "EMAIL_EXISTS",
  "MEMBER_EXISTS",
  "PROJECT_NOT_FOUND",
  "USER_NOT_FOUND",
  "SESSION_NOT_FOUND",
  "API_KEY_NOT_FOUND",
  "SSO_CONNECTION_NOT_FOUND",
  "INVALID_INVITATION",
  "SSO_FAILED",
  "RATE_LIMITED",
  "SERVICE_UNAVAILABLE",
  // Added after the platform core (API.md section 6 and the issues that asked for them).
  "ORIGIN_NOT_ALLOWED",
  "SECRET_KEY_IN_BROWSER",
  "MEMBER_NOT_FOUND",
  "LAST_ADMIN",
  // A project's bot protection: a public send or signup without a valid solved challenge.
  "BOT_CHECK_FAILED",
  // Added by Gatehouse for transport-level answers the specification does not name.
  "REQUEST_TOO_LARGE",
  "HEADERS_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "ROUTE_NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "NOT_IMPLEMENTED",
  "INTERNAL_ERROR",
  // GET /metrics when METRICS_TOKEN is set (docs/metrics.md).
  "MISSING_METRICS_TOKEN",
  "INVALID_METRICS_TOKEN",
  // Signup controls (API.md section 7): Signup in a project whose settings refuse the address.
  "SIGNUPS_CLOSED",
  // Hooks and webhooks (API.md section 7).
  "SIGNUP_REFUSED_BY_HOOK",
  "WEBHOOK_NOT_FOUND",
  "WEBHOOK_DELIVERY_NOT_FOUND",
  "HOOK_NOT_FOUND",
  // Passkeys (API.md section 7; issue 27).
  "PASSKEY_NOT_FOUND",
  "PASSKEY_VERIFICATION_FAILED",
  "PASSKEY_EXISTS",
  "PASSKEYS_UNAVAILABLE",
  // The OpenID Provider (API.md section 7; issue 28).
  "OAUTH_CLIENT_NOT_FOUND",
  "AUTHORIZED_APP_NOT_FOUND",
  // A hosted page answering an OpenID Provider interaction that expired or was already answered.
  "AUTHORIZATION_REQUEST_EXPIRED",
  // Social sign-in and per-project templates (issue 29).
  "IDENTITY_NOT_FOUND",
  "LAST_SIGN_IN_METHOD",
  "TEMPLATE_NOT_FOUND",
  // Members' second factor (issue 46): the last one cannot go while an organization requires it.
  "MFA_REQUIRED_BY_ORGANIZATION",
] as const;

export type Reason = (typeof REASONS)[number];

/** One input field that failed validation, named by its proto (JSON) field name. */
export interface Violation {
  field: string;
  description: string;
}

const LONE_SURROGATE = /\p{Cs}/gu;

/**
 * The only error type flows throw on purpose. Its message is shown to the caller, so it
 * must never carry a secret, a stack trace or SQL; anything else thrown is INTERNAL.
 */
export class DomainError extends Error {
  constructor(
    readonly reason: Reason,
    message: string,
    readonly violations: readonly Violation[] = [],
    /** RATE_LIMITED: when to try again, sent as `Retry-After`. */
    readonly retryAfterSeconds?: number,
  ) {
    // A message may quote the caller's text; a lone surrogate in it could not be sent as a gRPC
    // status (grpc-message is percent-encoded UTF-8), so it is replaced like a bad byte.
    super(message.replace(LONE_SURROGATE, "\ufffd"));
    this.name = "DomainError";
  }
}

/**
 * A refusal by a rate limit, naming the limit's key in the limiter store (an HMAC under the
 * service secret, never the address or email itself): the audit log records one event per
 * key and wait, not one per refused request. Never sent to the caller.
 */
export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    retryAfterSeconds: number,
    readonly limitedKey: string | undefined,
    /** Named to the caller (ErrorInfo metadata `limit`) where a page words it apart; see resendTooSoon. */
    readonly limit?: NamedLimit,
  ) {
    super("RATE_LIMITED", message, [], Math.max(1, Math.ceil(retryAfterSeconds)));
  }
}

/** The refusals a client may tell apart from "too many attempts" (API docs: "Errors"). */
export type NamedLimit = "resend_interval";

/**
 * RATE_LIMITED for a second code or link to one destination within its resend interval (one a
 * minute): nothing is wrong with the address and the first message is on its way, so the caller
 * is told which limit this is (`limit: resend_interval`) and a page says so. Only where a
 * refusal tells nothing about registration (the send goes to any address).
 */
export function resendTooSoon(message: string, retryAfterSeconds: number): RateLimitedError {
  return new RateLimitedError(message, retryAfterSeconds, undefined, "resend_interval");
}

/** RESOURCE_EXHAUSTED RATE_LIMITED with `Retry-After` (whole seconds, at least 1). */
export function rateLimited(message: string, retryAfterSeconds: number, limitedKey?: string): RateLimitedError {
  return new RateLimitedError(message, retryAfterSeconds, limitedKey);
}

/**
 * Violations reported at most, the first ones found: enough to fix a request by, and small
 * enough for every client's limits (a gRPC status travels in trailers, and grpc-js accepts 8 KiB
 * of them; a list of 2,000 bad items would otherwise make the answer itself unreadable).
 */
export const MAX_VIOLATIONS = 20;

export function validationFailed(violations: Violation[]): DomainError {
  const shown = violations.slice(0, MAX_VIOLATIONS);
  const more = violations.length - shown.length;
  const message = shown.map((v) => `${v.field}: ${v.description}`).join("; ") + (more > 0 ? `; and ${more} more` : "");
  return new DomainError("VALIDATION_FAILED", message, shown);
}
