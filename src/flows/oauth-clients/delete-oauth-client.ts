import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";
import { assertClientId, oauthClientNotFound } from "./client-rules.js";

/**
 * Deletes a client with every consent given to it and everything issued to it (codes, access
 * and refresh tokens, grants): its tokens stop working at once.
 */
export async function deleteOAuthClient(
  deps: Pick<FlowDeps, "db">,
  organizationId: string,
  clientId: string,
  origin: AuditOrigin,
): Promise<{ deleted: true; id: string }> {
  assertClientId(clientId);
  await deps.db.transaction(async (repos) => {
    const client = await repos.oauthClients.lock(organizationId, clientId);
    if (!client || !(await repos.oauthClients.delete(organizationId, clientId))) throw oauthClientNotFound();
    await repos.auditEvents.record({
      type: "oauth_client.deleted",
      organizationId,
      projectId: client.projectId,
      targetId: clientId,
      details: { name: client.name },
      origin,
    });
  });
  return { deleted: true, id: clientId };
}
