import type { AuditOrigin } from "../../domain/audit.js";
import type { WebhookEndpoint } from "../../domain/webhooks.js";
import type { EndpointChanges } from "../../store/repositories/webhook-endpoints.js";
import type { FlowDeps } from "../deps.js";
import {
  assertEndpointId,
  eventTypeViolations,
  subscriptionFor,
  throwIfAny,
  urlViolations,
  webhookNotFound,
} from "./endpoint-rules.js";

export interface UpdateWebhookEndpointInput {
  id: string;
  url?: string;
  /** Empty: unchanged (a repeated field has no presence). */
  eventTypes: string[];
  enabled?: boolean;
}

export async function updateWebhookEndpoint(
  deps: Pick<FlowDeps, "config" | "db">,
  organizationId: string,
  input: UpdateWebhookEndpointInput,
  origin: AuditOrigin,
): Promise<WebhookEndpoint> {
  throwIfAny([...urlViolations(deps, "url", input.url), ...eventTypeViolations(input.eventTypes)]);
  assertEndpointId(input.id);
  const changes: EndpointChanges = {
    url: input.url,
    subscription: input.eventTypes.length > 0 ? subscriptionFor(input.eventTypes) : undefined,
    enabled: input.enabled,
  };
  return deps.db.transaction(async (repos) => {
    const before = await repos.webhookEndpoints.lock(organizationId, input.id);
    if (!before) throw webhookNotFound();
    await repos.webhookEndpoints.update(organizationId, input.id, changes);
    // Locked above, so still there: the guard is for the type.
    const after = await repos.webhookEndpoints.get(organizationId, input.id);
    if (!after) throw webhookNotFound();
    const changed = [
      ...(input.url !== undefined ? ["url"] : []),
      ...(changes.subscription ? ["event_types"] : []),
      ...(input.enabled !== undefined ? ["enabled"] : []),
    ];
    await repos.auditEvents.record({
      type: "webhook.updated",
      organizationId,
      projectId: after.projectId,
      targetId: after.id,
      details: { changed, enabled: after.enabled },
      origin,
    });
    return after;
  });
}
