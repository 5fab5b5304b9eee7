import { scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import bcrypt from "bcryptjs";

// Password hashes made by another system and brought in by `gatehouse user import`: bcrypt and
// scrypt. They are checked at sign-in only until the user's first success, which stores an
// argon2id hash instead (PasswordVerdict.needsRehash), so each costs at most one slow check.
//
// The bounds keep an imported row from becoming a denial of service at sign-in: bcryptjs runs in
// JavaScript on the main thread (in slices, between other requests), and scrypt allocates
// 128·N·r bytes per check. The import refuses hashes beyond them; a row past them that got in
// some other way is not checked at all (a wrong password, like any other scheme).

/** bcrypt cost (log2 of the rounds): 13 is about a second of JavaScript per check. */
export const BCRYPT_MAX_COST = 13;
/** scrypt's memory, 128·N·r bytes. */
export const SCRYPT_MAX_MEMORY = 256 * 1024 * 1024;
/** scrypt's work, N·r·p (2^21 is N = 2^18, r = 8, p = 1: under a second on one core). */
export const SCRYPT_MAX_WORK = 2 ** 21;

export interface BcryptHash {
  scheme: "bcrypt";
  cost: number;
}

/** `$scrypt$ln=…,r=…,p=…$salt$hash`: the PHC-style string passlib writes. */
export interface ScryptHash {
  scheme: "scrypt";
  log2N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

export type LegacyHash = BcryptHash | ScryptHash;

// `$2a$`, `$2b$` (the current one) and `$2y$` (PHP's name for `$2b$`) compute the same thing;
// `$2x$` marks hashes of a known-broken implementation and is not accepted.
const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
const SCRYPT =
  /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/.\-_]+={0,2})\$([A-Za-z0-9+/.\-_]+={0,2})$/;

/** Which legacy scheme the string claims to be, before any bound is checked. */
export function legacySchemeOf(stored: string): LegacyHash["scheme"] | undefined {
  if (stored.startsWith("$2a$") || stored.startsWith("$2b$") || stored.startsWith("$2y$")) return "bcrypt";
  if (stored.startsWith("$scrypt$")) return "scrypt";
  return undefined;
}

/** The hash's parameters, or why it is not one this service checks (never quoting the hash). */
export function parseLegacyHash(stored: string): LegacyHash | { problem: string } {
  const scheme = legacySchemeOf(stored);
  if (scheme === "bcrypt") {
    const match = BCRYPT.exec(stored);
    if (!match) return { problem: "is not a well-formed bcrypt hash ($2b$NN$ and 53 characters)" };
    const cost = Number(match[1]);
    if (cost < 4) return { problem: `has bcrypt cost ${cost}, below 4, the least bcrypt allows` };
    if (cost > BCRYPT_MAX_COST)
      return { problem: `has bcrypt cost ${cost}, above ${BCRYPT_MAX_COST}, the most Gatehouse checks` };
    return { scheme, cost };
  }
  if (scheme === "scrypt") {
    const match = SCRYPT.exec(stored);
    if (!match) return { problem: "is not a well-formed scrypt hash ($scrypt$ln=N,r=N,p=N$salt$hash)" };
    const [log2N, r, p] = [match[1], match[2], match[3]].map(Number);
    const [salt, hash] = [decodeBase64(match[4]), decodeBase64(match[5])];
    if (log2N < 1 || r < 1 || p < 1) return { problem: "has a scrypt parameter of 0" };
    if (128 * 2 ** log2N * r > SCRYPT_MAX_MEMORY)
      return { problem: `has scrypt parameters needing more than ${SCRYPT_MAX_MEMORY / 2 ** 20} MiB` };
    if (2 ** log2N * r * p > SCRYPT_MAX_WORK)
      return { problem: `has scrypt parameters above N·r·p = 2^${Math.log2(SCRYPT_MAX_WORK)}` };
    if (salt.length < 8 || salt.length > 64) return { problem: "has a scrypt salt that is not 8 to 64 bytes" };
    if (hash.length < 16 || hash.length > 128) return { problem: "has a scrypt hash that is not 16 to 128 bytes" };
    return { scheme, log2N, r, p, salt, hash };
  }
  return { problem: "is not a bcrypt or scrypt hash" };
}

/** Whether `password` matches a bcrypt or scrypt hash; false for anything else or out of bounds. */
export async function verifyLegacyHash(stored: string, password: string): Promise<boolean> {
  const parsed = parseLegacyHash(stored);
  if ("problem" in parsed) return false;
  if (parsed.scheme === "bcrypt") {
    // bcrypt reads at most 72 bytes of the password, as the system that made the hash did; the
    // argon2id hash stored after this check covers the whole password.
    return bcrypt.compare(password, stored);
  }
  const derived = await scryptAsync(Buffer.from(password, "utf8"), parsed.salt, parsed.hash.length, {
    N: 2 ** parsed.log2N,
    r: parsed.r,
    p: parsed.p,
    maxmem: 2 * SCRYPT_MAX_MEMORY,
  });
  return timingSafeEqual(derived, parsed.hash);
}

/** Standard or URL-safe base64, or passlib's (`.` for `+`), padded or not. */
function decodeBase64(text: string): Buffer {
  return Buffer.from(text.replace(/[.-]/g, "+").replace(/_/g, "/"), "base64");
}

function scryptAsync(password: Buffer, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}
