import { hashToken } from "../../crypto/tokens.js";
import type { Project } from "../../domain/account.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";
import { checkAccessToken } from "./verify-access-token.js";

/** A JWS compact serialization: three base64url parts. Refresh tokens (`grt_…`) have none of its dots. */
const JWS_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * RevokeToken (RFC 7009 style): one access or refresh token of this project, the rest of its
 * session untouched. An access token's jti is denied until the token would have expired; a
 * refresh token is marked revoked. Anything unknown, expired, already revoked, of an ended
 * session or of another project answers `{revoked: false}`, so the call is safe to repeat.
 */
export async function revokeToken(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "verification">,
  project: Project,
  token: string,
  origin: AuditOrigin,
): Promise<{ revoked: boolean }> {
  if (JWS_SHAPE.test(token)) {
    const verified = await checkAccessToken(deps, project, token);
    if (!verified) return { revoked: false };
    const revoked = await deps.db.transaction(async (repos) => {
      if (
        !(await repos.revokedAccessTokens.revoke(project.id, verified.claims.jti, new Date(verified.claims.exp * 1000)))
      )
        return false;
      await repos.auditEvents.record({
        ...tokenRevoked(project, origin),
        userId: verified.userId,
        targetId: verified.sessionId,
        details: { token: "access" },
      });
      return true;
    });
    return { revoked };
  }
  const revoked = await deps.db.transaction(async (repos) => {
    const ended = await repos.refreshTokens.revoke(project.id, hashToken(token), deps.clock.now());
    if (!ended) return false;
    await repos.auditEvents.record({
      ...tokenRevoked(project, origin),
      userId: ended.userId,
      targetId: ended.sessionId,
      details: { token: "refresh" },
    });
    return true;
  });
  return { revoked };
}

function tokenRevoked(project: Project, origin: AuditOrigin) {
  return { type: "token.revoked" as const, organizationId: project.organizationId, projectId: project.id, origin };
}
