import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";
import { assertEndpointId, webhookNotFound } from "./endpoint-rules.js";

/** Deletes an endpoint with its delivery log; what was not delivered yet is dropped. */
export async function deleteWebhookEndpoint(
  deps: Pick<FlowDeps, "db">,
  organizationId: string,
  id: string,
  origin: AuditOrigin,
): Promise<{ deleted: true; id: string }> {
  assertEndpointId(id);
  await deps.db.transaction(async (repos) => {
    const endpoint = await repos.webhookEndpoints.lock(organizationId, id);
    if (!endpoint || !(await repos.webhookEndpoints.delete(organizationId, id))) throw webhookNotFound();
    await repos.auditEvents.record({
      type: "webhook.deleted",
      organizationId,
      projectId: endpoint.projectId,
      targetId: id,
      details: { url: endpoint.url },
      origin,
    });
  });
  return { deleted: true, id };
}
