import { validationFailed, type Violation } from "./errors.js";

/**
 * A project's rate limits (account.proto, RateLimits; docs/security.md, "Rate limits"). The
 * project row keeps only the values its owner set; every other one is the default here, so a
 * better default reaches every project that never chose.
 */
export interface RateLimits {
  /** Consecutive failed password sign-ins of one email before each further try must wait. */
  signInFailuresPerAccount: number;
  /** The first wait after those failures; each further failure adds as much again. */
  signInWaitSeconds: number;
  /** The longest wait: the progression stops growing here, and never becomes a lockout. */
  signInMaxWaitSeconds: number;
  /** Failed sign-ins, codes and MFA checks from one IP address per window. */
  failuresPerIp: number;
  /** Failed checks of one code or MFA challenge per window. */
  verifyAttemptsPerChallenge: number;
  /** Refreshes of one session per window. */
  refreshesPerSession: number;
  /** Signups from one IP address per window. */
  signupsPerIp: number;
  /** Mails and SMS (codes, links, resets, verifications) asked for from one IP address per window. */
  sendsPerIp: number;
  /** Mails and SMS to one address or number per send window. */
  sendsPerDestination: number;
  /** Mails and SMS to the project's users (addresses and numbers a user has) per send window. */
  sendsPerProject: number;
  /** The window of the per-IP, per-challenge and per-session counts. */
  windowSeconds: number;
  /** The window of the per-destination and per-project send counts. */
  sendWindowSeconds: number;
  /** Wrong second factors of one user, across challenges, before each further answer must wait. */
  mfaFailuresPerAccount: number;
  /** Mails and SMS to addresses and numbers no user has (first contact) per send window. */
  firstContactSendsPerProject: number;
  /** First-contact SMS to one country calling code per send window. */
  firstContactSmsPerCountry: number;
  /** SMS to one number per day. */
  smsPerDestinationPerDay: number;
}

/**
 * In the spirit of NIST SP 800-63B (at most 100 consecutive failures per account: 10 free, then
 * a wait that reaches 15 minutes, lets through about 100 a day), Keycloak's brute-force
 * detection (a 60 s wait growing to 15 minutes) and Supabase's auth limits (30 sends per 5
 * minutes per IP address).
 */
export const RATE_LIMIT_DEFAULTS: Readonly<RateLimits> = {
  signInFailuresPerAccount: 10,
  signInWaitSeconds: 60,
  signInMaxWaitSeconds: 900,
  failuresPerIp: 30,
  verifyAttemptsPerChallenge: 10,
  refreshesPerSession: 30,
  signupsPerIp: 30,
  sendsPerIp: 30,
  sendsPerDestination: 10,
  sendsPerProject: 1000,
  windowSeconds: 300,
  sendWindowSeconds: 3600,
  mfaFailuresPerAccount: 10,
  firstContactSendsPerProject: 200,
  firstContactSmsPerCountry: 20,
  smsPerDestinationPerDay: 10,
};

const DAY = 86_400;
/** Inclusive bounds; the proto comments repeat them. */
export const RATE_LIMIT_BOUNDS: Readonly<Record<keyof RateLimits, readonly [number, number]>> = {
  // NIST's ceiling of 100 consecutive failures.
  signInFailuresPerAccount: [1, 100],
  signInWaitSeconds: [1, 3600],
  signInMaxWaitSeconds: [1, DAY],
  failuresPerIp: [1, 100_000],
  verifyAttemptsPerChallenge: [1, 1000],
  refreshesPerSession: [1, 100_000],
  signupsPerIp: [1, 100_000],
  sendsPerIp: [1, 100_000],
  sendsPerDestination: [1, 1000],
  sendsPerProject: [1, 10_000_000],
  windowSeconds: [1, DAY],
  sendWindowSeconds: [1, DAY],
  mfaFailuresPerAccount: [1, 100],
  firstContactSendsPerProject: [1, 10_000_000],
  firstContactSmsPerCountry: [1, 100_000],
  smsPerDestinationPerDay: [1, 1000],
};

export const RATE_LIMIT_KEYS = Object.keys(RATE_LIMIT_DEFAULTS) as Array<keyof RateLimits>;

/** What the owner set, by field; stored as such in projects.rate_limits. */
export type RateLimitOverrides = Partial<RateLimits>;

export function effectiveRateLimits(overrides: RateLimitOverrides | undefined): RateLimits {
  const limits = { ...RATE_LIMIT_DEFAULTS };
  for (const key of RATE_LIMIT_KEYS) {
    const value = overrides?.[key];
    if (typeof value === "number") limits[key] = value;
  }
  return limits;
}

/** Only the known, present fields of a request, so nothing else reaches the row. */
export function overridesOf(
  input: Partial<Record<keyof RateLimits, number | undefined>> | undefined,
): RateLimitOverrides | undefined {
  if (!input) return undefined;
  const overrides: RateLimitOverrides = {};
  for (const key of RATE_LIMIT_KEYS) {
    const value = input[key];
    if (value !== undefined) overrides[key] = value;
  }
  return Object.keys(overrides).length > 0 ? overrides : undefined;
}

/**
 * VALIDATION_FAILED naming `rate_limits.<field>` for each value out of bounds and, given the
 * limits in force with the change (`after`), for a longest wait below the first one.
 * The validation interceptor checks top-level fields only, so the nested ones are checked here.
 */
export function assertRateLimits(changes: RateLimitOverrides | undefined, after?: RateLimitOverrides): void {
  if (!changes) return;
  const violations: Violation[] = [];
  for (const key of RATE_LIMIT_KEYS) {
    const value = changes[key];
    if (value === undefined) continue;
    const [min, max] = RATE_LIMIT_BOUNDS[key];
    if (!Number.isInteger(value) || value < min || value > max) {
      violations.push({ field: `rate_limits.${snake(key)}`, description: `must be an integer from ${min} to ${max}` });
    }
  }
  const merged = effectiveRateLimits(after);
  if (violations.length === 0 && after && merged.signInMaxWaitSeconds < merged.signInWaitSeconds) {
    violations.push({
      field: "rate_limits.sign_in_max_wait_seconds",
      description: "must be at least sign_in_wait_seconds",
    });
  }
  if (violations.length > 0) throw validationFailed(violations);
}

function snake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
