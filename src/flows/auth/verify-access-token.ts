import { tokenKid, verifyAccessToken, type AccessClaims } from "../../crypto/access-tokens.js";
import type { Project } from "../../domain/account.js";
import type { FlowDeps } from "../deps.js";
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
export async function checkAccessToken(deps: FlowDeps, project: Project, token: string): Promise<VerifiedAccess | undefined> {
  const kid = tokenKid(token);
  if (!kid) return undefined;
  const now = deps.clock.now();
  const cache = deps.verification;
  const key = await cache.signingKey(project, kid, now);
  if (!key) return undefined;
  const claims = await verifyAccessToken(token, key.key, { issuer: issuerOf(deps.config.publicUrl, project), projectId: project.id, now });
  if (!claims) return undefined;
  if (await cache.isRevoked(project.id, claims.jti, now)) return undefined;
  const session = await cache.activeSession(project.id, claims.sid, now);
  if (!session || session.userId !== claims.sub) return undefined;
  return { claims, userId: session.userId, sessionId: claims.sid };
}
