import { createHash } from "node:crypto";
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify, type JWK } from "jose";

/** How old a proof may be, and how far ahead of this clock (RFC 9449 section 11.1). */
const PROOF_WINDOW_SECONDS = 60;
/** Proof ids remembered to refuse a replay, at most (least recent out first). */
const MAX_SEEN = 10_000;

const seen = new Map<string, number>();

/** What a resource request says: its method and URL, and the headers that carry the token and the proof. */
export interface DpopRequest {
  method: string;
  url: string;
  proof: string | undefined;
  accessToken: string;
}

/**
 * Checks a DPoP proof (RFC 9449 section 4.3) for a request made with a DPoP-bound access token:
 * signed by the key the token is bound to (`cnf.jkt`), for this method and URL, for this token
 * (`ath`), fresh, and not seen before on this instance. Undefined when it holds, else why not.
 */
export async function dpopRefusal(request: DpopRequest, jkt: string, now: Date): Promise<string | undefined> {
  if (!request.proof) return "a DPoP-bound token needs a DPoP proof";
  let verified;
  try {
    verified = await jwtVerify(request.proof, EmbeddedJWK, {
      typ: "dpop+jwt",
      algorithms: ["ES256", "ES384", "RS256", "PS256", "EdDSA"],
      currentDate: now,
    });
  } catch {
    return "the DPoP proof does not verify";
  }
  const { payload, protectedHeader } = verified;
  if ((await calculateJwkThumbprint(protectedHeader.jwk as JWK, "sha256")) !== jkt)
    return "the DPoP proof is not signed by the key the token is bound to";
  const target = new URL(request.url);
  if (payload.htm !== request.method || payload.htu !== `${target.origin}${target.pathname}`)
    return "the DPoP proof is for another request";
  if (payload.ath !== createHash("sha256").update(request.accessToken).digest("base64url"))
    return "the DPoP proof is for another access token";
  const seconds = Math.floor(now.getTime() / 1000);
  if (typeof payload.iat !== "number" || Math.abs(seconds - payload.iat) > PROOF_WINDOW_SECONDS)
    return "the DPoP proof is too old or from the future";
  if (typeof payload.jti !== "string" || seen.has(payload.jti)) return "the DPoP proof was already used";
  seen.set(payload.jti, seconds);
  if (seen.size > MAX_SEEN) seen.delete(seen.keys().next().value as string);
  return undefined;
}
