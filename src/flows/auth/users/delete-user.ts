import type { Project } from "../../../domain/account.js";
import type { AuditOrigin } from "../../../domain/audit.js";
import { auditUserPseudonym } from "../../audit/record.js";
import type { FlowDeps } from "../../deps.js";
import { requireSelfOrAdmin, type UserActor } from "./actor.js";
import { isUserId, userNotFound } from "./get-user.js";

/**
 * Deletes the user with everything below it (sessions, refresh tokens, links, and whatever
 * later tables hang off users) in one statement: the foreign keys cascade. Its access tokens
 * fail verification at once, since their session and user are gone. With a user token, only
 * the user itself (an account deleting itself).
 */
export async function deleteUser(
  deps: Pick<FlowDeps, "db" | "codes">,
  project: Project,
  actor: UserActor,
  id: string,
  origin: AuditOrigin,
): Promise<{ deleted: true; id: string }> {
  requireSelfOrAdmin(actor, id, "user can be deleted");
  const deleted =
    isUserId(id) &&
    (await deps.db.transaction(async (repos) => {
      if (!(await repos.users.delete(project.id, id))) return false;
      // Webhooks name the user (the audit row below names a pseudonym).
      await repos.webhookDeliveries.enqueueUserDeleted(project.organizationId, project.id, id, origin.actor);
      await repos.webhookDeliveries.forgetUser(project.id, id);
      // The organization keeps its record of what happened; nothing in it points at the person.
      const pseudonym = auditUserPseudonym(deps, id);
      await repos.auditEvents.forgetUser(project.organizationId, project.id, id, pseudonym);
      const self = origin.actor.type === "user";
      await repos.auditEvents.record({
        type: "user.deleted",
        organizationId: project.organizationId,
        projectId: project.id,
        userId: pseudonym,
        origin: self ? { actor: { type: "user", id: pseudonym }, ip: "", userAgent: "" } : origin,
      });
      return true;
    }));
  if (!deleted) throw userNotFound();
  return { deleted: true, id };
}
