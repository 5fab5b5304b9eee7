import type { AuditOrigin } from "../../domain/audit.js";
import { validationFailed } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import { MAX_ENDPOINTS_PER_PROJECT, type WebhookEndpoint } from "../../domain/webhooks.js";
import { newSigningSecret } from "../../outbound/standard-webhooks.js";
import type { FlowDeps } from "../deps.js";
import { projectNotFound } from "../projects/not-found.js";
import { eventTypeViolations, subscriptionFor, throwIfAny, urlViolations } from "./endpoint-rules.js";

export interface CreateWebhookEndpointInput {
  projectId: string;
  url: string;
  eventTypes: string[];
  enabled: boolean;
}

/** A new endpoint of one of the organization's projects, with its secret (shown once). */
export async function createWebhookEndpoint(
  deps: Pick<FlowDeps, "config" | "db" | "secrets">,
  organizationId: string,
  input: CreateWebhookEndpointInput,
  origin: AuditOrigin,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  throwIfAny([...urlViolations(deps, "url", input.url), ...eventTypeViolations(input.eventTypes)]);
  if (!isIdOf("proj", input.projectId)) throw projectNotFound();
  const secret = newSigningSecret();
  const endpoint = await deps.db.transaction(async (repos) => {
    // A share lock keeps the project from being deleted meanwhile. The count is a guard against
    // runaway scripts, not a quota: two creations at the same moment may both pass it.
    if (!(await repos.projects.getForShare(organizationId, input.projectId))) throw projectNotFound();
    if ((await repos.webhookEndpoints.count(input.projectId)) >= MAX_ENDPOINTS_PER_PROJECT)
      throw validationFailed([
        {
          field: "project_id",
          description: `already has ${MAX_ENDPOINTS_PER_PROJECT} webhook endpoints, the most a project may have`,
        },
      ]);
    const created = await repos.webhookEndpoints.create(
      organizationId,
      input.projectId,
      { url: input.url, subscription: subscriptionFor(input.eventTypes), enabled: input.enabled, secret },
      deps.secrets,
    );
    await repos.auditEvents.record({
      type: "webhook.created",
      organizationId,
      projectId: input.projectId,
      targetId: created.id,
      details: { url: created.url, event_types: created.eventTypes },
      origin,
    });
    return created;
  });
  return { endpoint, secret };
}
