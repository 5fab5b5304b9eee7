import type { AuthMethod } from "./usage.js";

// Multi-factor authentication: factors a user enrolls, and the challenges that hold a sign-in
// at its second factor (API.md section 5, "MFA challenge").

export const MFA_METHODS = ["totp", "sms"] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

/** The methods a user's `mfa_methods` may list: the factors, and `webauthn` while the user has a passkey. */
export type UserMfaMethod = MfaMethod | "webauthn";

/** `amr` values that prove a second factor: a sign-in with one of these needs no challenge. */
export const SECOND_FACTOR_AMR = ["totp", "sms", "recovery_code"] as const;

/** `amr` values of a passkey: possession of a device-bound (`hwk`) or synced (`swk`) key (RFC 8176). */
export const KEY_AMR = ["hwk", "swk"] as const;

/**
 * Whether `amr` shows two factors: a second factor's code, or a passkey together with anything
 * else proven (a password or code before it, or its own user verification, `user`).
 */
export function provesTwoFactors(amr: readonly string[]): boolean {
  if (amr.some((a) => (SECOND_FACTOR_AMR as readonly string[]).includes(a))) return true;
  return amr.length >= 2 && amr.some((a) => (KEY_AMR as readonly string[]).includes(a));
}

/** mfa_token lifetime (API.md section 5: `expires_in` 300). */
export const MFA_CHALLENGE_TTL_SECONDS = 300;
/** Wrong codes an mfa_token, a one-time code or a pending SMS enrollment takes before it is spent. */
export const MAX_CODE_ATTEMPTS = 5;
/** How long an SMS enrollment code stays valid. */
export const SMS_ENROLLMENT_TTL_SECONDS = 600;
/** At most one SMS enrollment code a minute for a user, as SendOtp sends one code a minute. */
export const SMS_RESEND_INTERVAL_SECONDS = 60;
/** Recovery codes issued at once. */
export const RECOVERY_CODE_COUNT = 10;

export interface MfaFactor {
  id: string;
  userId: string;
  method: MfaMethod;
  /** TOTP: the base32 seed, sealed with the secret box (associated data: the factor id). */
  secretSealed: string | null;
  /** SMS: where codes go (E.164). */
  phone: string | null;
  /** Null while the enrollment waits for its first code. */
  confirmedAt: Date | null;
  pendingCodeHmac: string | null;
  pendingCodeExpiresAt: Date | null;
  /** Wrong codes against the pending enrollment. */
  attempts: number;
  createdAt: Date;
}

export interface MfaChallenge {
  userId: string;
  /** `verify`: prove a second factor; `enroll`: enroll one first (project mfa_required). */
  purpose: "verify" | "enroll";
  /** What the first factor proved, carried into the session's `amr`. */
  amr: string[];
  /** The first factor's method, recorded in usage when the sign-in completes. */
  method: AuthMethod;
  /** The SMS code sent with the challenge (an SMS-only user), as an HMAC. */
  smsCodeHmac: string | null;
  /** The passkey that proved the first factor: it cannot answer as the second. */
  passkeyId: string | null;
  attempts: number;
  expiresAt: Date;
}

export function isMfaMethod(value: string): value is MfaMethod {
  return (MFA_METHODS as readonly string[]).includes(value);
}
