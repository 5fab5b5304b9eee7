import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION = "v1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretBox {
  /** `associatedData` (e.g. the row id) binds the ciphertext to its place: moved elsewhere it will not open. */
  seal(plain: string | Buffer, associatedData?: string): string;
  /** Throws on a wrong key, wrong associated data, or any altered byte. */
  open(sealed: string, associatedData?: string): Buffer;
}

/**
 * AES-256-GCM for secrets that must be read back (SSO client secrets, TOTP seeds). The `v1.`
 * prefix leaves room to change algorithm or key later without guessing a value's format.
 */
export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new RangeError("secret box key must be 32 bytes");
  return {
    seal(plain, associatedData) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      if (associatedData !== undefined) cipher.setAAD(Buffer.from(associatedData, "utf8"));
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
    },
    open(sealed, associatedData) {
      if (!sealed.startsWith(VERSION)) throw new Error("secret box: unknown format");
      const raw = Buffer.from(sealed.slice(VERSION.length), "base64url");
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error("secret box: truncated");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      if (associatedData !== undefined) decipher.setAAD(Buffer.from(associatedData, "utf8"));
      try {
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      } catch {
        // Node's message is generic already; a fixed one keeps it so whatever the version.
        throw new Error("secret box: cannot open (tampered, or wrong key)");
      }
    },
  };
}
