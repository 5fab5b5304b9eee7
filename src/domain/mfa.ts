import type { AuthMethod } from "./usage.js";

// Multi-factor authentication: factors a user enrolls, and the challenges that hold a sign-in
// at its second factor (API.md section 5, "MFA challenge").

export const MFA_METHODS = ["totp", "sms"] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

/** `amr` values that prove a second factor: a sign-in with one of these needs no challenge. */
export const SECOND_FACTOR_AMR = ["totp", "sms", "recovery_code"] as const;

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
  attempts: number;
  expiresAt: Date;
}

export function isMfaMethod(value: string): value is MfaMethod {
  return (MFA_METHODS as readonly string[]).includes(value);
}
