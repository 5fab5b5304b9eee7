import type { AuditOrigin } from "../../domain/audit.js";
import { PREVIOUS_SECRET_TTL_MS } from "../../domain/webhooks.js";
import { newSigningSecret } from "../../outbound/standard-webhooks.js";
import type { FlowDeps } from "../deps.js";
import { assertEndpointId, webhookNotFound } from "./endpoint-rules.js";

/**
 * A new secret; the one it replaces keeps signing beside it for PREVIOUS_SECRET_TTL_MS, so a
 * receiver can switch without losing an event (Standard Webhooks' rotation). A second rotation
 * within that time retires the oldest at once: only two sign at a time.
 */
export async function rotateWebhookSecret(
  deps: Pick<FlowDeps, "db" | "clock" | "secrets">,
  organizationId: string,
  id: string,
  origin: AuditOrigin,
): Promise<{ id: string; secret: string; previousSecretExpiresAt: Date }> {
  assertEndpointId(id);
  const secret = newSigningSecret();
  const previousSecretExpiresAt = new Date(deps.clock.now().getTime() + PREVIOUS_SECRET_TTL_MS);
  await deps.db.transaction(async (repos) => {
    const endpoint = await repos.webhookEndpoints.lock(organizationId, id);
    if (!endpoint) throw webhookNotFound();
    await repos.webhookEndpoints.rotateSecret(organizationId, id, secret, previousSecretExpiresAt, deps.secrets);
    await repos.auditEvents.record({
      type: "webhook.secret_rotated",
      organizationId,
      projectId: endpoint.projectId,
      targetId: id,
      origin,
    });
  });
  return { id, secret, previousSecretExpiresAt };
}
