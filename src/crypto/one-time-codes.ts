import { createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from "node:crypto";

/**
 * HMACs of short codes (six-digit one-time codes, recovery codes) under a key derived from
 * GATEHOUSE_SECRET. A bare hash of a six-digit code falls to brute force offline in
 * milliseconds; without the key a stolen table gives nothing away. `context` binds a code to
 * where it was sent (project, channel, destination), so a row copied elsewhere never matches.
 */
export interface CodeHasher {
  hmac(context: string, code: string): string;
  /** Constant time in the code and the stored value. */
  matches(context: string, code: string, storedHmac: string): boolean;
}

export function createCodeHasher(secret: Buffer): CodeHasher {
  const key = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "gatehouse one-time codes v1", 32));
  const digest = (context: string, code: string) =>
    createHmac("sha256", key).update(context).update("\0").update(code).digest();
  return {
    hmac: (context, code) => digest(context, code).toString("hex"),
    matches(context, code, storedHmac) {
      const stored = Buffer.from(storedHmac, "hex");
      const given = digest(context, code);
      return stored.length === given.length && timingSafeEqual(stored, given);
    },
  };
}

/** Six digits from the CSPRNG, leading zeros kept. */
export function sixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

// Crockford's base32 without I, L, O, U: nothing to misread when typed from paper.
const RECOVERY_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** `xxxxx-xxxxx`: 50 random bits, typed in either case, with or without the dash. */
export function recoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = Array.from(bytes, (b) => RECOVERY_ALPHABET[b & 31]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** The form recovery codes are stored and compared in. */
export function normalizeRecoveryCode(code: string): string {
  return code.trim().toLowerCase().replace(/[\s-]/g, "");
}
