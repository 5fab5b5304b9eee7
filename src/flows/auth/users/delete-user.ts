import type { Project } from "../../../domain/account.js";
import type { FlowDeps } from "../../deps.js";
import { isUserId, userNotFound } from "./get-user.js";

/**
 * Deletes the user with everything below it (sessions, refresh tokens, links, and whatever
 * later tables hang off users) in one statement: the foreign keys cascade. Its access tokens
 * fail verification at once, since their session and user are gone.
 */
export async function deleteUser(deps: FlowDeps, project: Project, id: string): Promise<{ deleted: true; id: string }> {
  const deleted = isUserId(id) && (await deps.db.transaction((repos) => repos.users.delete(project.id, id)));
  if (!deleted) throw userNotFound();
  return { deleted: true, id };
}
