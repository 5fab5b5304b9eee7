import type { Project } from "../../domain/account.js";
import type { AuditOrigin } from "../../domain/audit.js";
import { DomainError, validationFailed } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import type { AuthorizedApp } from "../../domain/oauth-clients.js";
import type { FlowDeps } from "../deps.js";
import { requireSelfOrAdmin, type UserActor } from "./users/actor.js";
import { isUserId, userNotFound } from "./users/get-user.js";

// A user's consents to the OAuth clients of the project's OpenID Provider (issue 28): listed
// and withdrawn by the user (access token) or, for a named user, by an admin (the API key
// alone), as passkeys are.

export function authorizedAppNotFound(): DomainError {
  return new DomainError("AUTHORIZED_APP_NOT_FOUND", "this user has not authorized that application");
}

/** The user the request is about: a token's own (or the same id named), or as admin the one named. */
function subjectOf(actor: UserActor, userId: string, what: string): string {
  const id = actor.kind === "user" ? userId || actor.userId : userId;
  if (id === "") throw validationFailed([{ field: "user_id", description: "is required as admin" }]);
  requireSelfOrAdmin(actor, id, what);
  return id;
}

/** ListAuthorizedApps: the applications the user has authorized, most recently first. */
export async function listAuthorizedApps(
  deps: Pick<FlowDeps, "db">,
  project: Project,
  actor: UserActor,
  userId: string,
): Promise<AuthorizedApp[]> {
  const id = subjectOf(actor, userId, "authorized applications can be listed");
  if (!isUserId(id) || !(await deps.db.repos.users.get(project.id, id))) throw userNotFound();
  return deps.db.repos.oauthConsents.listOfUser(project.id, id);
}

/**
 * RevokeAuthorizedApp: withdraws the consent and ends what was issued to the application for
 * the user (codes, access and refresh tokens), in one statement; the application asks for
 * consent again next time. Nothing to revoke, for an unknown user or client alike, is
 * AUTHORIZED_APP_NOT_FOUND.
 */
export async function revokeAuthorizedApp(
  deps: Pick<FlowDeps, "db">,
  project: Project,
  actor: UserActor,
  input: { clientId: string; userId: string },
  origin: AuditOrigin,
): Promise<{ revoked: true; clientId: string }> {
  const id = subjectOf(actor, input.userId, "authorized applications can be revoked");
  if (!isUserId(id) || !isIdOf("oac", input.clientId)) throw authorizedAppNotFound();
  await deps.db.transaction(async (repos) => {
    if (!(await repos.oauthConsents.revoke(project.id, id, input.clientId))) throw authorizedAppNotFound();
    await repos.auditEvents.record({
      type: "user.authorized_app.revoked",
      organizationId: project.organizationId,
      projectId: project.id,
      userId: id,
      targetId: input.clientId,
      origin,
    });
  });
  return { revoked: true, clientId: input.clientId };
}
