import type { Project } from "../../../domain/account.js";
import type { FlowDeps } from "../../deps.js";
import { requireSelfOrAdmin, type UserActor } from "./actor.js";
import { isUserId, userNotFound } from "./get-user.js";

/**
 * Deletes the user with everything below it (sessions, refresh tokens, links, and whatever
 * later tables hang off users) in one statement: the foreign keys cascade. Its access tokens
 * fail verification at once, since their session and user are gone. With a user token, only
 * the user itself (an account deleting itself).
 */
export async function deleteUser(deps: FlowDeps, project: Project, actor: UserActor, id: string): Promise<{ deleted: true; id: string }> {
  requireSelfOrAdmin(actor, id, "user can be deleted");
  const deleted = isUserId(id) && (await deps.db.transaction((repos) => repos.users.delete(project.id, id)));
  if (!deleted) throw userNotFound();
  return { deleted: true, id };
}
