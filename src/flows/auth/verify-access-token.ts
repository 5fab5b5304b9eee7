import { checkClaims, parseToken, verifySignature, type AccessClaims } from "../../crypto/access-tokens.js";
import type { Project } from "../../domain/account.js";
import type { FlowDeps } from "../deps.js";
import type { VerificationCache } from "../../store/verification-cache.js";
import { issuerOf } from "./issuer.js";

export interface VerifiedAccess {
  claims: AccessClaims;
  userId: string;
  sessionId: string;
}

/**
 * A token is valid when a key of this project signed it (a retired key still counts until its
 * last token expires), it has not expired, and neither the token, its session nor its user has
 * been revoked, disabled or deleted since. Anything else is simply not valid: no reason is
 * given to the bearer.
 *
 * Every read comes from the verification cache: no database round trip on the hot path.
 */
export async function checkAccessToken(
  deps: Pick<FlowDeps, "clock" | "config" | "verification">,
  project: Project,
  token: string,
): Promise<VerifiedAccess | undefined> {
  const now = deps.clock.now();
  const cache = deps.verification;
  const payload = await signedPayload(cache, project, token, now);
  if (!payload) return undefined;
  const claims = checkClaims(payload, { issuer: issuerOf(deps.config.publicUrl, project), projectId: project.id, now });
  if (!claims) return undefined;
  if (await cache.isRevoked(project.id, claims.jti, now)) return undefined;
  const session = await cache.activeSession(project.id, claims.sid, now);
  if (!session || session.userId !== claims.sub) return undefined;
  return { claims, userId: session.userId, sessionId: claims.sid };
}

/**
 * The payload of a token one of the project's live keys signed. A token whose signature held
 * once holds for as long as its key does, so the answer is remembered per token string (the
 * cache drops it when the project's keys change) and the ES256 check runs once per token,
 * not once per request. Claims are still checked against the clock on every call.
 */
export async function signedPayload(
  cache: VerificationCache,
  project: Project,
  token: string,
  now: Date,
): Promise<Record<string, unknown> | undefined> {
  const known = cache.signedPayload(project.id, token);
  if (known) return (await cache.signingKey(project, known.kid, now)) ? known.payload : undefined;
  const parsed = parseToken(token);
  if (!parsed) return undefined;
  const key = await cache.signingKey(project, parsed.kid, now);
  if (!key) return undefined;
  const payload = verifySignature(parsed, key.key);
  if (payload) cache.rememberSigned(project.id, token, { kid: parsed.kid, payload });
  return payload;
}
