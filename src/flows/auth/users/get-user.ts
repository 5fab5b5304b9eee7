import type { Project } from "../../../domain/account.js";
import type { User } from "../../../domain/auth.js";
import type { UserIdentity } from "../../../domain/sso.js";
import type { Passkey } from "../../../domain/passkeys.js";
import { DomainError } from "../../../domain/errors.js";
import type { FlowDeps } from "../../deps.js";
import { requireSelfOrAdmin, type UserActor } from "./actor.js";

/** The shape of a user id (`usr_` + 26 lower-case base32 characters); anything else is simply not found. */
const USER_ID = /^usr_[0-9a-z]{26}$/;

export function isUserId(id: string): boolean {
  return USER_ID.test(id);
}

export function userNotFound(): DomainError {
  return new DomainError("USER_NOT_FOUND", "no such user in this project");
}

/**
 * One user of the project, with its linked SSO identities and its passkeys; another project's user, an
 * unknown id or a malformed one is USER_NOT_FOUND. With a user token, only the user itself.
 */
export async function getUser(
  deps: Pick<FlowDeps, "db">,
  project: Project,
  actor: UserActor,
  id: string,
): Promise<{ user: User; identities: UserIdentity[]; passkeys: Passkey[] }> {
  requireSelfOrAdmin(actor, id, "user can be read");
  const user = isUserId(id) ? await deps.db.repos.users.get(project.id, id) : null;
  if (!user) throw userNotFound();
  const identities = await deps.db.repos.ssoIdentities.listByUser(project.id, user.id);
  return { user, identities, passkeys: await deps.db.repos.passkeys.listOfUser(project.id, user.id) };
}
