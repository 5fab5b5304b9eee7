// Members' second factor (issue 46): what a member identity proves after its password. Factors
// belong to the identity, so one factor guards every organization it signs in to; an
// organization may require one of every member (`require_member_mfa`). The lifetimes and counts
// are the end users' (mfa.ts, passkeys.ts).

/** The factors a member enrolls with a code: TOTP (passkeys register with their own ceremony). */
export const MEMBER_MFA_METHODS = ["totp"] as const;
export type MemberMfaMethod = (typeof MEMBER_MFA_METHODS)[number];

/** The methods a challenge may list: TOTP, and `webauthn` while the identity has a passkey. */
export type MemberSecondFactor = MemberMfaMethod | "webauthn";

/** What answered a challenge, recorded with the sign-in. */
export type MemberProof = MemberSecondFactor | "recovery_code";

export interface MemberMfaFactor {
  id: string;
  identityId: string;
  method: MemberMfaMethod;
  /** The base32 seed, sealed with the secret box (associated data: the factor id). */
  secretSealed: string;
  /** Null while the enrollment waits for its first code. */
  confirmedAt: Date | null;
  attempts: number;
  createdAt: Date;
}

/** A member sign-in held at its second factor (`verify`) or at enrollment (`enroll`). */
export interface MemberMfaChallenge {
  identityId: string;
  organizationId: string;
  memberId: string;
  purpose: "verify" | "enroll";
  attempts: number;
  expiresAt: Date;
}

export interface MemberPasskey {
  id: string;
  identityId: string;
  /** base64url, as the browser names it. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  backupEligible: boolean;
  backedUp: boolean;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface MemberPasskeyChallenge {
  id: string;
  identityId: string;
  purpose: "registration" | "sign_in";
  /** SHA-256 of the challenge, base64url. */
  challengeHash: string;
  rpId: string;
  origins: string[];
  /** The member mfa_token it is bound to, as SHA-256. */
  mfaTokenHash: string | null;
  expiresAt: Date;
}

/** An identity's second factors as a challenge lists them. */
export function secondFactorsOf(has: { totp: boolean; passkeys: number }): MemberSecondFactor[] {
  return [...(has.totp ? (["totp"] as const) : []), ...(has.passkeys > 0 ? (["webauthn"] as const) : [])];
}
