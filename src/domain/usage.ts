import { validationFailed } from "./errors.js";

// Usage metrics are counted from auth events, one row per sign-up, sign-in or refresh that
// succeeded, written by the Authentication flows in the transaction of the event itself.

/**
 * - `signup`: a user was created and signed in (Signup; OTP, magic link or SSO creating the user).
 * - `login`: an existing user signed in and a session was created. A sign-in held at an MFA
 *   challenge records nothing until the challenge is answered; then it records `login` under the
 *   first factor's method, so an OTP sign-in completed with TOTP still counts as passwordless.
 *   A signup held at an enrollment challenge records its `signup` with no token at once.
 * - `refresh`: a refresh token was exchanged for a new access token.
 */
export const AUTH_EVENT_KINDS = ["signup", "login", "refresh"] as const;
export type AuthEventKind = (typeof AUTH_EVENT_KINDS)[number];

/** How the user proved who they are: the first factor (`mfa` is allowed by the schema, never recorded). */
export const AUTH_METHODS = ["password", "otp", "magic_link", "sso", "mfa", "refresh", "passkey"] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

export interface AuthEvent {
  organizationId: string;
  projectId: string;
  userId: string;
  kind: AuthEventKind;
  method: AuthMethod;
  /**
   * Access tokens issued by the event: 1 normally, 0 for a signup that ends in an MFA
   * enrollment challenge instead of tokens. Defaults to 1.
   */
  tokensIssued?: number;
  /** When it happened; defaults to the repository clock's now. */
  at?: Date;
}

/** The counters of GetUsageMetrics (API.md section 4, "Usage counting"). */
export interface UsageCounts {
  /** Distinct users with a `signup` or `login` event. */
  mau: number;
  /** `login` events. */
  totalLogins: number;
  /** Sum of tokens issued by every event. */
  tokensIssued: number;
  /** `login` events by `otp` or `magic_link`. */
  passwordlessLogins: number;
  /** `login` events by `sso`. */
  ssoLogins: number;
  /** `login` events by `passkey` (a passkey as the first factor). */
  passkeyLogins: number;
}

/** Whole UTC days, both ends included, as given on the wire and as the half-open instant range queried. */
export interface UsagePeriod {
  from: string;
  to: string;
  /** `from` at 00:00 UTC. */
  start: Date;
  /** The day after `to` at 00:00 UTC: events before it count. */
  end: Date;
}

/**
 * Applies the defaults (`to` today in UTC, `from` the first day of `to`'s month) and the state
 * rules: `from` on or before `to`, at most one year apart. Both rules name `from`: with
 * `from` absent neither can fail, so `from` is always what the caller has to change.
 * The shapes were checked by the proto's FORMAT_DATE rule.
 */
export function resolvePeriod(input: { from?: string; to?: string }, now: Date): UsagePeriod {
  const to = input.to ? parseDay(input.to) : utcDay(now);
  const from = input.from ? parseDay(input.from) : new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), 1));
  if (from > to) {
    throw validationFailed([{ field: "from", description: `must be on or before to (${formatDay(to)})` }]);
  }
  // A year from `from`, exclusive: 2025-01-01 allows up to 2025-12-31 (Feb 29 rolls to Mar 1).
  const yearLater = new Date(Date.UTC(from.getUTCFullYear() + 1, from.getUTCMonth(), from.getUTCDate()));
  if (to >= yearLater) {
    throw validationFailed([{ field: "from", description: `must be less than one year before to (${formatDay(to)})` }]);
  }
  return { from: formatDay(from), to: formatDay(to), start: from, end: new Date(to.getTime() + 86_400_000) };
}

function parseDay(day: string): Date {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, date));
}

function utcDay(instant: Date): Date {
  return new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate()));
}

export function formatDay(day: Date): string {
  return day.toISOString().slice(0, 10);
}
