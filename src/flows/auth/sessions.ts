import type { Project } from "../../domain/account.js";
import type { Session } from "../../domain/auth.js";
import { DomainError } from "../../domain/errors.js";
import { pageRequest, toPage, type Page } from "../../domain/pagination.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";

/** The signed-in user and the session of the access token making the request. */
export interface SessionOwner {
  userId: string;
  sessionId: string;
}

export interface ListSessionsInput {
  limit?: number;
  cursor?: string;
}

/**
 * One page of the user's live sessions (not revoked, not past their absolute expiry), newest
 * first (keyset pagination, never OFFSET), the one of the calling access token marked.
 */
export async function listSessions(
  deps: Pick<FlowDeps, "db" | "clock" | "cursors">,
  project: Project,
  owner: SessionOwner,
  input: ListSessionsInput = {},
): Promise<Page<Session & { isCurrent: boolean }>> {
  // The list is the user's sessions: a cursor from another user's list (or another list) is
  // INVALID_CURSOR; any of the user's own sessions may continue it.
  const list = `sessions:${project.id}:${owner.userId}`;
  const page = pageRequest(deps.cursors, list, input);
  const rows = await deps.db.repos.sessions.listActive(project.id, owner.userId, deps.clock.now(), page);
  const { data, nextCursor, hasMore } = toPage(deps.cursors, list, rows, page.limit);
  return { data: data.map((s) => ({ ...s, isCurrent: s.id === owner.sessionId })), nextCursor, hasMore };
}

/**
 * Ends every live session of the user, the current one too unless `keepCurrent`. A revoked
 * session's access tokens fail verification at once (checkAccessToken looks the session up)
 * and its refresh tokens stop working (Refresh checks the session).
 */
export async function revokeAllSessions(
  deps: Pick<FlowDeps, "db" | "clock">,
  project: Project,
  owner: SessionOwner,
  keepCurrent: boolean,
  origin: AuditOrigin,
): Promise<number> {
  return deps.db.transaction(async (repos) => {
    const count = await repos.sessions.revokeAll(
      project.id,
      owner.userId,
      deps.clock.now(),
      keepCurrent ? owner.sessionId : undefined,
    );
    if (count > 0) {
      const event = {
        type: "session.revoked" as const,
        organizationId: project.organizationId,
        projectId: project.id,
        userId: owner.userId,
      };
      await repos.auditEvents.record({ ...event, details: { all: true, count, keep_current: keepCurrent }, origin });
    }
    return count;
  });
}

/**
 * Ends one of the user's own sessions. Safe to repeat, like RevokeToken: a session of the
 * user that has already ended (revoked, or past its absolute expiry) answers `revoked: false`.
 * Only an id the user never had (unknown, another user's, another project's) is
 * SESSION_NOT_FOUND, so nothing is learnt about other users' sessions.
 */
export async function revokeSession(
  deps: Pick<FlowDeps, "db" | "clock">,
  project: Project,
  owner: SessionOwner,
  sessionId: string,
  origin: AuditOrigin,
): Promise<{ revoked: boolean }> {
  const outcome = await deps.db.transaction(async (repos) => {
    if (await repos.sessions.revoke(project.id, owner.userId, sessionId, deps.clock.now())) {
      const event = {
        type: "session.revoked" as const,
        organizationId: project.organizationId,
        projectId: project.id,
        userId: owner.userId,
      };
      await repos.auditEvents.record({ ...event, targetId: sessionId, origin });
      return "revoked";
    }
    return (await repos.sessions.existsForUser(project.id, owner.userId, sessionId)) ? "already" : "absent";
  });
  if (outcome === "absent") throw new DomainError("SESSION_NOT_FOUND", "no such session");
  return { revoked: outcome === "revoked" };
}
