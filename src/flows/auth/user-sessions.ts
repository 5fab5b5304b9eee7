import type { Project } from "../../domain/account.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { Session } from "../../domain/auth.js";
import type { Page } from "../../domain/pagination.js";
import type { FlowDeps } from "../deps.js";
import { adminOnly, type UserActor } from "./users/actor.js";
import { isUserId, userNotFound } from "./users/get-user.js";
import {
  listSessions,
  revokeAllSessions,
  revokeSession,
  type ListSessionsInput,
  type SessionOwner,
} from "./sessions.js";

// A user's sessions as the project's administrator sees them (ListUserSessions,
// RevokeUserSession, RevokeAllUserSessions): the same lists and revocations the user has
// through its own token, for the user the request names. No session is the caller's, so none
// is current and none is kept.

async function ownerFor(deps: Pick<FlowDeps, "db">, project: Project, actor: UserActor, userId: string, what: string) {
  adminOnly(actor, what);
  // An unknown user is USER_NOT_FOUND rather than an empty list, so a typo is not read as
  // "signed out everywhere".
  if (!isUserId(userId) || !(await deps.db.repos.users.get(project.id, userId))) throw userNotFound();
  return { userId, sessionId: "" } satisfies SessionOwner;
}

export async function listUserSessions(
  deps: Pick<FlowDeps, "db" | "clock" | "cursors">,
  project: Project,
  actor: UserActor,
  userId: string,
  input: ListSessionsInput,
): Promise<Page<Session & { isCurrent: boolean }>> {
  const owner = await ownerFor(deps, project, actor, userId, "listing another user's sessions");
  return listSessions(deps, project, owner, input);
}

export async function revokeUserSession(
  deps: Pick<FlowDeps, "db" | "clock">,
  project: Project,
  actor: UserActor,
  userId: string,
  sessionId: string,
  origin: AuditOrigin,
): Promise<{ revoked: boolean }> {
  const owner = await ownerFor(deps, project, actor, userId, "revoking another user's session");
  return revokeSession(deps, project, owner, sessionId, origin);
}

export async function revokeAllUserSessions(
  deps: Pick<FlowDeps, "db" | "clock">,
  project: Project,
  actor: UserActor,
  userId: string,
  origin: AuditOrigin,
): Promise<number> {
  const owner = await ownerFor(deps, project, actor, userId, "signing a user out everywhere");
  return revokeAllSessions(deps, project, owner, false, origin);
}
