import { DomainError } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";

/**
 * Deletes a connection of the caller's organization. Users who signed in through it keep their
 * accounts and sessions: nothing else references the connection.
 */
export async function deleteSsoConnection(
  deps: Pick<FlowDeps, "db">,
  organizationId: string,
  id: string,
  origin: AuditOrigin,
): Promise<{ deleted: true; id: string }> {
  const notFound = () => new DomainError("SSO_CONNECTION_NOT_FOUND", "no such SSO connection in this organization");
  if (!isIdOf("sso", id)) throw notFound();
  const deleted = await deps.db.transaction(async (repos) => {
    const projectId = (await repos.ssoConnections.projectOf(organizationId, id)) ?? null;
    if (!(await repos.ssoConnections.delete(organizationId, id))) return false;
    await repos.auditEvents.record({ type: "sso_connection.deleted", organizationId, projectId, targetId: id, origin });
    return true;
  });
  if (!deleted) throw notFound();
  return { deleted: true, id };
}
