import { webhookTypeOf } from "../domain/webhooks.js";
import type { StoredEvent } from "../store/repositories/webhook-deliveries.js";

/**
 * The body of every attempt of an event, made from the stored event alone, so a retry or a
 * replay sends the same bytes (API.md section 7: `{"type", "timestamp", "data"}`). `data`
 * is what the audit log recorded, with the user as it was when the event happened; it
 * never holds a password, hash, code or token, because the audit row and the snapshot
 * never do.
 */
export function webhookBody(event: StoredEvent): string {
  const type = webhookTypeOf(event.type) ?? event.type;
  return JSON.stringify({
    type,
    timestamp: event.occurredAt.toISOString(),
    data: {
      project_id: event.projectId,
      ...(event.userId !== null ? { user_id: event.userId } : {}),
      ...(event.userSnapshot !== null ? { user: event.userSnapshot } : {}),
      actor: { type: event.actorType, id: event.actorId },
      ...(event.targetId !== null ? { target_id: event.targetId } : {}),
      ...(event.reason !== null ? { reason: event.reason } : {}),
      details: event.details,
      audit_type: event.type,
    },
  });
}
