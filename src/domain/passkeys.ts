// Passkeys (WebAuthn credentials) and the challenges of their ceremonies (issue 27, API.md
// section 7). A user's passkeys together are the MFA method `webauthn`.

export const PASSKEY_USER_VERIFICATIONS = ["preferred", "required"] as const;
export type PasskeyUserVerification = (typeof PASSKEY_USER_VERIFICATIONS)[number];
export const PASSKEY_ATTESTATIONS = ["none", "direct"] as const;
export type PasskeyAttestation = (typeof PASSKEY_ATTESTATIONS)[number];

/** A ceremony's challenge lives 5 minutes, as an mfa_token does. */
export const PASSKEY_CHALLENGE_TTL_SECONDS = 300;
/** The browser's own timeout for the ceremony, a little inside the challenge's life. */
export const PASSKEY_CEREMONY_TIMEOUT_MS = 240_000;
/** Passkeys per user: a bound on the rows a user can make, and on allowCredentials' size. */
export const MAX_PASSKEYS_PER_USER = 25;

export interface Passkey {
  id: string;
  userId: string;
  /** base64url, as the browser names it. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  backupEligible: boolean;
  backedUp: boolean;
  /** Kept under `direct` attestation only. */
  aaguid: string | null;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** What an options answer shows of a passkey but its id: what an email-first decoy copies. */
export interface CredentialShape {
  /** Bytes of the credential id. */
  idLength: number;
  transports: string[];
}

export interface PasskeyChallenge {
  id: string;
  /** The user it is bound to: the registering user, an email-first or MFA sign-in's user; null: discoverable. */
  userId: string | null;
  /**
   * An email-first sign-in's user: the one its address names, or "" when it names none (then no
   * passkey answers it); null or absent for other ceremonies. Not kept in `userId`, whose foreign
   * key is checked on insert (a lock on the user's row) and would make a registered address's
   * start slower than an unknown one's.
   */
  namedUserId?: string | null;
  purpose: "registration" | "sign_in";
  /** SHA-256 of the challenge, base64url. */
  challengeHash: string;
  rpId: string;
  origins: string[];
  /** The mfa_token it is bound to (enrollment or sign-in challenge), as SHA-256. */
  mfaTokenHash: string | null;
  expiresAt: Date;
}

/**
 * What a passkey assertion proves (RFC 8176): possession of a key, `hwk` for one bound to its
 * device and `swk` for one that syncs (backup eligible, held in software by a password manager
 * or platform keychain); and with user verification, `user` too: the two factors of one gesture.
 */
export function passkeyAmr(passkey: Pick<Passkey, "backupEligible">, userVerified: boolean): string[] {
  const key = passkey.backupEligible ? "swk" : "hwk";
  return userVerified ? [key, "user"] : [key];
}

/** The default name of a passkey the user did not name. */
export function defaultPasskeyName(at: Date): string {
  return `Passkey ${at.toISOString().slice(0, 10)}`;
}
