import { createHmac, randomBytes } from "node:crypto";

// Signing as the Standard Webhooks specification has it (https://www.standardwebhooks.com/):
// the secret is `whsec_` and the base64 of random bytes; each delivery carries `webhook-id`,
// `webhook-timestamp` (unix seconds) and `webhook-signature`, a space-separated list of
// `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, one per secret, so that during a
// rotation a receiver holding either the old or the new secret can verify. Receivers use any
// Standard Webhooks library (the tests check ours against the `standardwebhooks` package).

const PREFIX = "whsec_";
/** Bytes of a new secret; the specification asks for 24 to 64. */
const SECRET_BYTES = 32;
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;

/** A new signing secret: `whsec_` and the base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

/** The key a secret stands for; throws on a malformed secret rather than signing with less. */
export function signingKey(secret: string): Buffer {
  const encoded = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : undefined;
  // Strict base64: Buffer.from would skip stray characters and sign with a different key.
  if (encoded === undefined || encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded))
    throw new Error("malformed webhook signing secret: expected whsec_ followed by base64");
  const key = Buffer.from(encoded, "base64");
  if (key.length < MIN_SECRET_BYTES || key.length > MAX_SECRET_BYTES)
    throw new Error(
      `malformed webhook signing secret: the key must be ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} bytes`,
    );
  return key;
}

/** The three headers of one signed delivery; one signature per secret (two while rotating). */
export function signingHeaders(
  msgId: string,
  timestamp: Date,
  body: string,
  secrets: string[],
): Record<string, string> {
  // The id is part of the signed text and a header value: visible ASCII, no separator.
  if (!/^[\x21-\x7e]+$/.test(msgId) || msgId.includes("."))
    throw new Error("webhook message id must be visible ASCII without a dot");
  const seconds = Math.floor(timestamp.getTime() / 1000);
  if (!Number.isSafeInteger(seconds)) throw new Error("webhook timestamp must be a valid date");
  if (secrets.length === 0) throw new Error("a webhook needs at least one signing secret");
  const keys = secrets.map(signingKey);
  const signed = `${msgId}.${seconds}.${body}`;
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(seconds),
    "webhook-signature": keys.map((key) => `v1,${createHmac("sha256", key).update(signed).digest("base64")}`).join(" "),
  };
}
