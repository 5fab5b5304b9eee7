import type { Project } from "../../domain/account.js";
import type { AuditOrigin } from "../../domain/audit.js";
import { DomainError, validationFailed } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import type { UserIdentity } from "../../domain/sso.js";
import type { Repositories } from "../../store/database.js";
import type { FlowDeps } from "../deps.js";
import { requireSelfOrAdmin, type UserActor } from "./users/actor.js";
import { isUserId, userNotFound } from "./users/get-user.js";

// A user's linked SSO and social identities (issue 29): listed and unlinked by the user (access
// token) or, for a named user, by an admin (the API key alone), as authorized applications are.
// Unlinking only cuts the link: the provider's next sign-in with the same verified email links
// it again, as at first (sso/identity-sign-in.ts).

export function identityNotFound(): DomainError {
  return new DomainError("IDENTITY_NOT_FOUND", "this user has no linked identity with that id");
}

/** The user the request is about: a token's own (or the same id named), or as admin the one named. */
function subjectOf(actor: UserActor, userId: string, what: string): string {
  const id = actor.kind === "user" ? userId || actor.userId : userId;
  if (id === "") throw validationFailed([{ field: "user_id", description: "is required as admin" }]);
  requireSelfOrAdmin(actor, id, what);
  return id;
}

/** ListIdentities: the user's linked identities, oldest first. */
export async function listIdentities(
  deps: Pick<FlowDeps, "db">,
  project: Project,
  actor: UserActor,
  userId: string,
): Promise<UserIdentity[]> {
  const id = subjectOf(actor, userId, "identities can be listed");
  if (!isUserId(id) || !(await deps.db.repos.users.get(project.id, id))) throw userNotFound();
  return deps.db.repos.ssoIdentities.listByUser(project.id, id);
}

/**
 * UnlinkIdentity: removes one of the user's identities, unless it is the user's last way to
 * sign in. An identity of another user or project, and an unknown user, are IDENTITY_NOT_FOUND
 * alike.
 */
export async function unlinkIdentity(
  deps: Pick<FlowDeps, "db">,
  project: Project,
  actor: UserActor,
  input: { id: string; userId: string },
  origin: AuditOrigin,
): Promise<{ deleted: true; id: string }> {
  const userId = subjectOf(actor, input.userId, "identities can be unlinked");
  if (!isUserId(userId) || !isIdOf("idn", input.id)) throw identityNotFound();
  return deps.db.transaction(async (repos) => {
    const identities = await repos.ssoIdentities.lockOfUser(project.id, userId);
    const identity = identities.find((i) => i.id === input.id);
    if (!identity) throw identityNotFound();
    if (identities.length === 1 && !(await hasOtherSignIn(repos, project.id, userId))) {
      throw new DomainError(
        "LAST_SIGN_IN_METHOD",
        "this identity is the user's only way to sign in: set a password or add a passkey first",
      );
    }
    await repos.ssoIdentities.unlink(project.id, userId, identity.id);
    await repos.auditEvents.record({
      type: "user.identity.unlinked",
      organizationId: project.organizationId,
      projectId: project.id,
      userId,
      targetId: identity.id,
      details: { connection_id: identity.connectionId },
      origin,
    });
    return { deleted: true as const, id: identity.id };
  });
}

/**
 * A password or a passkey. Email codes and links do not count: the project may not offer
 * them, or may turn them off later, and they prove only the mailbox.
 */
async function hasOtherSignIn(repos: Repositories, projectId: string, userId: string): Promise<boolean> {
  if ((await repos.users.passwordHash(projectId, userId)) !== null) return true;
  return (await repos.passkeys.listOfUser(projectId, userId)).length > 0;
}
