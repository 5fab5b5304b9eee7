import { isIdOf } from "../../domain/ids.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";
import { projectNotFound } from "./not-found.js";

/**
 * Deletes a project and, by the database's cascades in the same statement, its API keys,
 * signing keys and SSO connections (users, sessions and tokens likewise once they exist):
 * its keys fail on the very next request and its tokens no longer verify. The login id stays
 * registered so it is never issued again.
 */
export async function deleteProject(
  deps: Pick<FlowDeps, "db">,
  organizationId: string,
  id: string,
  origin: AuditOrigin,
): Promise<{ deleted: true; id: string }> {
  if (!isIdOf("proj", id)) throw projectNotFound();
  const deleted = await deps.db.transaction(async (repos) => {
    if (!(await repos.projects.delete(organizationId, id))) return false;
    await repos.auditEvents.record({ type: "project.deleted", organizationId, projectId: id, targetId: id, origin });
    return true;
  });
  if (!deleted) throw projectNotFound();
  return { deleted: true, id };
}
