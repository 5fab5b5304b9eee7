import { createPublicKey, randomBytes, sign, verify, type JsonWebKey, type KeyObject } from "node:crypto";
import type { JWK, JWTPayload } from "jose";
import { SIGNING_ALGORITHM } from "./signing-keys.js";

/** The claims of a Gatehouse access token (API.md section 5). */
export interface AccessClaims extends JWTPayload {
  sub: string;
  email: string;
  iat: number;
  exp: number;
  iss: string;
  aud: string;
  jti: string;
  project_id: string;
  sid: string;
  amr: string[];
  /**
   * The user's admin-only app_metadata when the token was issued (API.md section 6); absent
   * from tokens issued before the claim existed.
   */
  app_metadata?: Record<string, unknown>;
}

export interface SignInput {
  key: KeyObject;
  kid: string;
  issuer: string;
  projectId: string;
  userId: string;
  email: string;
  sessionId: string;
  amr: string[];
  /** The user's app_metadata; default `{}` (the claim is always written). */
  appMetadata?: Record<string, unknown>;
  lifetimeSeconds: number;
  now: Date;
  /** Claims a project's custom_access_token hook added; Gatehouse's own claims win over any of the same name. */
  extraClaims?: Record<string, unknown>;
}

const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/**
 * Signed here with node:crypto rather than jose's SignJWT: jose signs through WebCrypto, which
 * hands every signature to the libuv pool, where it waits behind the argon2 hashes of the
 * logins it belongs to. An ES256 signature takes tens of microseconds on the event loop.
 */
export function signAccessToken(input: SignInput): { token: string; jti: string; expiresAt: Date } {
  const iat = Math.floor(input.now.getTime() / 1000);
  const exp = iat + input.lifetimeSeconds;
  const jti = randomBytes(16).toString("base64url");
  const claims: AccessClaims = {
    ...input.extraClaims,
    email: input.email,
    project_id: input.projectId,
    sid: input.sessionId,
    amr: input.amr,
    app_metadata: input.appMetadata ?? {},
    sub: input.userId,
    iss: input.issuer,
    aud: input.projectId,
    iat,
    exp,
    jti,
  };
  const signingInput = `${segment({ alg: SIGNING_ALGORITHM, kid: input.kid, typ: "JWT" })}.${segment(claims)}`;
  // JWS wants the raw r‖s form (RFC 7518 section 3.4), not OpenSSL's DER.
  const signature = sign("sha256", Buffer.from(signingInput), { key: input.key, dsaEncoding: "ieee-p1363" });
  return { token: `${signingInput}.${signature.toString("base64url")}`, jti, expiresAt: new Date(exp * 1000) };
}

/** A compact JWS taken apart; nothing in it is trusted yet. */
export interface ParsedToken {
  kid: string;
  signingInput: Buffer;
  signature: Buffer;
  payloadSegment: string;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function decodeJsonObject(segment: string): Record<string, unknown> | undefined {
  if (!BASE64URL.test(segment)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Splits a compact JWS and reads its header. Undefined unless it is exactly three base64url
 * segments, the header is a JSON object naming alg ES256 and a kid, and it asks for nothing we
 * do not implement (`crit`, unencoded payloads): `none`, HS256 and every other algorithm are
 * refused here, before any key is chosen.
 */
export function parseToken(token: string): ParsedToken | undefined {
  if (token.length > 8192) return undefined;
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const [headerSegment, payloadSegment, signatureSegment] = parts;
  const header = decodeJsonObject(headerSegment);
  if (!header || header.alg !== SIGNING_ALGORITHM || typeof header.kid !== "string") return undefined;
  if (header.crit !== undefined || header.b64 !== undefined) return undefined;
  if (!BASE64URL.test(payloadSegment) || !BASE64URL.test(signatureSegment)) return undefined;
  const signature = Buffer.from(signatureSegment, "base64url");
  // ES256 signatures are r || s, 32 bytes each (RFC 7518 section 3.4).
  if (signature.length !== 64) return undefined;
  return {
    kid: header.kid,
    signingInput: Buffer.from(`${headerSegment}.${payloadSegment}`, "ascii"),
    signature,
    payloadSegment,
  };
}

/** How far in the future an `iat` may lie (clock skew between instances) before the token is refused. */
export const IAT_SKEW_SECONDS = 30;

/** The public key of a signing key, for verifySignature. */
export function verificationKey(publicJwk: JWK): KeyObject {
  return createPublicKey({ key: publicJwk as JsonWebKey, format: "jwk" });
}

/**
 * The payload of a token whose ES256 signature `publicKey` made; undefined otherwise.
 *
 * node:crypto's one-shot verify on the calling thread, not WebCrypto: it costs less than
 * handing a job to the libuv pool and back, and keeps verification clear of argon2's threads.
 */
export function verifySignature(parsed: ParsedToken, publicKey: KeyObject): Record<string, unknown> | undefined {
  if (publicKey.asymmetricKeyType !== "ec" || publicKey.asymmetricKeyDetails?.namedCurve !== "prime256v1")
    return undefined;
  try {
    if (!verify("sha256", parsed.signingInput, { key: publicKey, dsaEncoding: "ieee-p1363" }, parsed.signature))
      return undefined;
  } catch {
    return undefined;
  }
  return decodeJsonObject(parsed.payloadSegment);
}

/**
 * Expiry, not-before, issued-at, issuer, audience and the claims Gatehouse always writes, at
 * `now`. Undefined when anything is off.
 */
export function checkClaims(
  payload: Record<string, unknown>,
  expected: { issuer: string; projectId: string; now: Date },
): AccessClaims | undefined {
  const now = Math.floor(expected.now.getTime() / 1000);
  const { exp, nbf, iat, iss, aud, sub, jti, sid, project_id: projectId } = payload;
  if (typeof exp !== "number" || !Number.isFinite(exp) || exp <= now) return undefined;
  if (nbf !== undefined && (typeof nbf !== "number" || nbf > now)) return undefined;
  // A token issued in the future (beyond a small skew between instances' clocks) was not
  // issued by Gatehouse.
  if (typeof iat !== "number" || iat > now + IAT_SKEW_SECONDS) return undefined;
  if (iss !== expected.issuer) return undefined;
  if (!(aud === expected.projectId || (Array.isArray(aud) && aud.includes(expected.projectId)))) return undefined;
  if (typeof sub !== "string" || typeof jti !== "string" || typeof sid !== "string" || projectId !== expected.projectId)
    return undefined;
  return payload as AccessClaims;
}
