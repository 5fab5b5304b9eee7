import { randomBytes } from "node:crypto";
import { decodeProtectedHeader, jwtVerify, SignJWT, type CryptoKey, type JWTPayload } from "jose";
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
}

export interface SignInput {
  key: CryptoKey;
  kid: string;
  issuer: string;
  projectId: string;
  userId: string;
  email: string;
  sessionId: string;
  amr: string[];
  lifetimeSeconds: number;
  now: Date;
}

export async function signAccessToken(input: SignInput): Promise<{ token: string; jti: string; expiresAt: Date }> {
  const iat = Math.floor(input.now.getTime() / 1000);
  const exp = iat + input.lifetimeSeconds;
  const jti = randomBytes(16).toString("base64url");
  const token = await new SignJWT({ email: input.email, project_id: input.projectId, sid: input.sessionId, amr: input.amr })
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: input.kid, typ: "JWT" })
    .setSubject(input.userId)
    .setIssuer(input.issuer)
    .setAudience(input.projectId)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(jti)
    .sign(input.key);
  return { token, jti, expiresAt: new Date(exp * 1000) };
}

/** The key id a token names, or undefined when the token is not a well-formed JWS. */
export function tokenKid(token: string): string | undefined {
  try {
    const header = decodeProtectedHeader(token);
    return typeof header.kid === "string" ? header.kid : undefined;
  } catch {
    return undefined;
  }
}

/** How far in the future an `iat` may lie (clock skew between instances) before the token is refused. */
export const IAT_SKEW_SECONDS = 30;

/**
 * Checks signature (ES256 only: `none`, HS256 and every other algorithm are refused before
 * any key is used), expiry, not-before, issuer and audience. Undefined when anything is off.
 */
export async function verifyAccessToken(
  token: string,
  publicKey: CryptoKey,
  expected: { issuer: string; projectId: string; now: Date },
): Promise<AccessClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, publicKey, {
      algorithms: [SIGNING_ALGORITHM],
      issuer: expected.issuer,
      audience: expected.projectId,
      currentDate: expected.now,
      requiredClaims: ["sub", "exp", "iat", "jti", "sid"],
    });
    if (payload.project_id !== expected.projectId || typeof payload.sid !== "string") return undefined;
    // jose checks iat only together with maxTokenAge: a token issued in the future (beyond a
    // small skew between instances' clocks) was not issued by Gatehouse.
    if (typeof payload.iat !== "number" || payload.iat > Math.floor(expected.now.getTime() / 1000) + IAT_SKEW_SECONDS) return undefined;
    return payload as AccessClaims;
  } catch {
    return undefined;
  }
}
