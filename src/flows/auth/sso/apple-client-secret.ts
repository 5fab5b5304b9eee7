import { createHash, createPrivateKey, sign, type KeyObject } from "node:crypto";
import type { Clock } from "../../../domain/clock.js";
import { DomainError } from "../../../domain/errors.js";

// Sign in with Apple has no static client secret: the client authenticates at the token
// endpoint with an ES256 JWT signed by a key from the Apple Developer account (the .p8 file),
// naming the team (iss), the Services ID (sub) and Apple (aud), valid for at most six months.
// Gatehouse signs a short-lived one and keeps it until shortly before it expires, so a leaked
// secret is worth an hour and a changed key or key id is used at the next exchange.

/** What signs an Apple client secret: the connection's team, key and Services ID. */
export interface AppleSigner {
  /** The connection, which the cached secret belongs to. */
  id: string;
  /** The Services ID: the client id, and the JWT's `sub`. */
  clientId: string;
  /** Apple's issuer, the JWT's `aud` (https://appleid.apple.com, or a stand-in's in tests). */
  issuer: string;
  /** The Apple Developer team id, the JWT's `iss`. */
  teamId: string;
  /** The id of the key, the JWT header's `kid`. */
  keyId: string;
  /** The key as PKCS#8 PEM, as Apple hands it out in the .p8 file. */
  privateKey: string;
}

/** How long a signed secret is valid; Apple accepts up to six months (15,777,000 s). */
export const APPLE_SECRET_LIFETIME_SECONDS = 60 * 60;
/** A cached secret is signed afresh this long before it expires, so none arrives expired. */
export const APPLE_SECRET_RENEW_SECONDS = 5 * 60;
/** Connections whose secret is kept at most (least recently signed out first). */
const MAX_CACHED = 1_000;

export interface AppleClientSecrets {
  /** The client secret for the connection now: the cached one while fresh, else a new one. SSO_FAILED for an unusable key. */
  secretFor(signer: AppleSigner): string;
}

interface Cached {
  /** What the secret was signed from: another key, key id, team or client signs anew. */
  fingerprint: string;
  secret: string;
  expiresAt: number;
}

export function createAppleClientSecrets(clock: Clock): AppleClientSecrets {
  const cache = new Map<string, Cached>();
  return {
    secretFor(signer) {
      const now = clock.now().getTime();
      const fingerprint = fingerprintOf(signer);
      const hit = cache.get(signer.id);
      if (hit && hit.fingerprint === fingerprint && now < hit.expiresAt - APPLE_SECRET_RENEW_SECONDS * 1000)
        return hit.secret;
      const signed = signAppleClientSecret(signer, new Date(now));
      cache.delete(signer.id);
      cache.set(signer.id, { fingerprint, ...signed });
      const oldest = cache.keys().next();
      if (cache.size > MAX_CACHED && !oldest.done) cache.delete(oldest.value);
      return signed.secret;
    },
  };
}

/** One client secret, valid from `now` for APPLE_SECRET_LIFETIME_SECONDS. */
export function signAppleClientSecret(signer: AppleSigner, now: Date): { secret: string; expiresAt: number } {
  const key = p256Key(signer.privateKey);
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + APPLE_SECRET_LIFETIME_SECONDS;
  const header = { alg: "ES256", kid: signer.keyId, typ: "JWT" };
  const claims = { iss: signer.teamId, iat, exp, aud: signer.issuer, sub: signer.clientId };
  const signingInput = `${segment(header)}.${segment(claims)}`;
  // JWS wants the raw r‖s form (RFC 7518 section 3.4), not OpenSSL's DER.
  const signature = sign("sha256", Buffer.from(signingInput), { key, dsaEncoding: "ieee-p1363" });
  return { secret: `${signingInput}.${signature.toString("base64url")}`, expiresAt: exp * 1000 };
}

/** The .p8 key; anything but a P-256 private key is a connection Apple would refuse anyway. */
function p256Key(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: "pem" });
  } catch {
    throw new DomainError("SSO_FAILED", "the connection's Apple private key cannot be read");
  }
  if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1")
    throw new DomainError("SSO_FAILED", "the connection's Apple private key is not a P-256 (ES256) key");
  return key;
}

function fingerprintOf(signer: AppleSigner): string {
  return createHash("sha256")
    .update(JSON.stringify([signer.clientId, signer.issuer, signer.teamId, signer.keyId, signer.privateKey]))
    .digest("base64url");
}

const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
