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
 */
export async function checkAccessToken(deps: FlowDeps, project: Project, token: string): Promise<VerifiedAccess | undefined> {
  const kid = tokenKid(token);
  if (!kid) return undefined;
  const now = deps.clock.now();
  const repos = deps.db.repos;
  const keys = await repos.signingKeys.listPublic(project.id, new Date(now.getTime() - project.tokenExpiry * 1000));
  const key = keys.find((k) => k.kid === kid);
  if (!key) return undefined;
  const claims = await verifyAccessToken(token, key.publicJwk, { issuer: issuerOf(deps.config.publicUrl, project), projectId: project.id, now });
  if (!claims) return undefined;
  if (await repos.revokedAccessTokens.isRevoked(project.id, claims.jti)) return undefined;
  const session = await repos.sessions.getActive(project.id, claims.sid, now);
  if (!session || session.userId !== claims.sub) return undefined;
  const user = await repos.users.get(project.id, claims.sub);
  if (!user || user.disabled) return undefined;
  return { claims, userId: user.id, sessionId: session.id };
}
