import { DomainError } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import { pageRequest, toPage, type Page } from "../../domain/pagination.js";
import type { DeliveryStatus, WebhookDelivery } from "../../domain/webhooks.js";
import type { FlowDeps } from "../deps.js";
import { assertEndpointId, webhookNotFound } from "./endpoint-rules.js";

// The delivery log of an endpoint (ListWebhookDeliveries), a replay (ReplayWebhookDelivery)
// and a test event (SendTestWebhook): each wakes the worker after commit.

export async function listWebhookDeliveries(
  deps: Pick<FlowDeps, "db" | "cursors">,
  organizationId: string,
  input: { id: string; limit?: number; cursor?: string; status?: DeliveryStatus },
): Promise<Page<WebhookDelivery>> {
  assertEndpointId(input.id);
  const { repos } = deps.db;
  const endpoint = await repos.webhookEndpoints.get(organizationId, input.id);
  if (!endpoint) throw webhookNotFound();
  const list = `webhook-deliveries:${organizationId}:${input.id}:${input.status ?? ""}`;
  const page = pageRequest(deps.cursors, list, input);
  const rows = await repos.webhookDeliveries.list(endpoint.projectId, endpoint.id, input.status, page);
  return toPage(deps.cursors, list, rows, page.limit);
}

function deliveryNotFound(): DomainError {
  return new DomainError("WEBHOOK_DELIVERY_NOT_FOUND", "no such webhook delivery in this organization");
}

export async function replayWebhookDelivery(
  deps: Pick<FlowDeps, "db">,
  organizationId: string,
  id: string,
  wake: () => void,
): Promise<WebhookDelivery> {
  if (!isIdOf("whd", id)) throw deliveryNotFound();
  const { repos } = deps.db;
  if (!(await repos.webhookDeliveries.replay(organizationId, id))) throw deliveryNotFound();
  wake();
  // Not one transaction with the replay: a delete may come in between.
  const delivery = await repos.webhookDeliveries.get(organizationId, id);
  if (!delivery) throw deliveryNotFound();
  return delivery;
}

export async function sendTestWebhook(
  deps: Pick<FlowDeps, "db">,
  organizationId: string,
  endpointId: string,
  wake: () => void,
): Promise<WebhookDelivery> {
  assertEndpointId(endpointId);
  // One statement finds the endpoint in the organization and queues the event in its project.
  const deliveryId = await deps.db.repos.webhookDeliveries.enqueueTest(organizationId, endpointId);
  if (!deliveryId) throw webhookNotFound();
  wake();
  // Not one transaction with the enqueue: a delete may come in between.
  const delivery = await deps.db.repos.webhookDeliveries.get(organizationId, deliveryId);
  if (!delivery) throw webhookNotFound();
  return delivery;
}
