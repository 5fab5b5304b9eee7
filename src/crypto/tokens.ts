import { createHash, hash, randomBytes, timingSafeEqual } from "node:crypto";

/** `${prefix}_` + base64url of `bytes` random bytes; the prefix tells a leaked secret's kind. */
export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}_${randomBytes(bytes).toString("base64url")}`;
}

/**
 * SHA-256 hex: what is stored for high-entropy secrets (API keys, tokens). No salt or slow hash
 * is needed since the input is 256 random bits, and a deterministic hash allows a unique index
 * lookup.
 */
export function hashToken(raw: string): string {
  return hash("sha256", raw, "hex");
}

/** Compares digests rather than inputs, so neither the content nor the length leaks in time. */
export function constantTimeEqual(a: string, b: string): boolean {
  const da = createHash("sha256").update(a, "utf8").digest();
  const db = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(da, db);
}
