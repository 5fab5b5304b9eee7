import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { Clock } from "../../domain/clock.js";
import type { PageRequest } from "../../domain/pagination.js";
import {
  KEPT_ATTEMPTS,
  TEST_EVENT_TYPE,
  type DeliveryStatus,
  type WebhookAttempt,
  type WebhookDelivery,
  webhookTypeOf,
} from "../../domain/webhooks.js";
import type { WebhookAttemptRecord } from "../entities/webhook-delivery.entity.js";
import { int, json, jsonObject, nullable, row, sql, statements, text, timestamp } from "../sql/index.js";

/** A stored event as the worker turns it into a body: everything it says, fixed when it happened. */
export interface StoredEvent {
  id: string;
  organizationId: string;
  projectId: string;
  type: string;
  userId: string | null;
  actorType: string;
  actorId: string;
  targetId: string | null;
  reason: string | null;
  details: Record<string, unknown>;
  userSnapshot: Record<string, unknown> | null;
  occurredAt: Date;
}

/** A delivery claimed by one worker: its attempt number counts this attempt. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  attempt: number;
  event: StoredEvent;
}

const claimedRow = row({
  id: text,
  endpoint_id: text,
  attempt_count: int,
  event_id: text,
  organization_id: text,
  project_id: text,
  type: text,
  user_id: nullable(text),
  actor_type: text,
  actor_id: text,
  target_id: nullable(text),
  reason: nullable(text),
  details: jsonObject,
  user_snapshot: nullable(jsonObject),
  occurred_at: timestamp,
});

const idRow = row({ id: text });
const organizationRow = row({ organization_id: text });

const deliveryRow = row({
  id: text,
  endpoint_id: text,
  event_id: text,
  type: text,
  status: text,
  attempts: json,
  next_attempt_at: nullable(timestamp),
  created_at: timestamp,
});

function toAttempt(record: WebhookAttemptRecord): WebhookAttempt {
  return {
    at: new Date(record.at),
    status: record.status,
    latencyMs: record.latency_ms,
    error: record.error,
    excerpt: record.excerpt,
  };
}

function toDelivery(r: ReturnType<typeof deliveryRow>): WebhookDelivery {
  const attempts = Array.isArray(r.attempts) ? (r.attempts as WebhookAttemptRecord[]) : [];
  return {
    id: r.id,
    endpointId: r.endpoint_id,
    eventId: r.event_id,
    eventType: webhookTypeOf(r.type) ?? r.type,
    status: r.status as DeliveryStatus,
    attempts: attempts.map(toAttempt),
    nextAttemptAt: r.next_attempt_at,
    createdAt: r.created_at,
  };
}

/** What comes after an attempt: done, another try at `retryAt`, or given up. */
export type AttemptOutcome = { status: "succeeded" } | { status: "pending"; retryAt: Date } | { status: "failed" };

const SELECT_DELIVERY = sql`SELECT d.id, d.endpoint_id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.created_at
   FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id`;

// Deliveries are the project's resource reached through its endpoint: the Account flows name
// the endpoint (already checked against the organization) or the project; only the worker
// reads across projects, as the mail outbox's worker does.
export function webhookDeliveriesRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
  return {
    /**
     * Claims up to `limit` due deliveries with SKIP LOCKED (another instance claiming at the same
     * moment takes other rows), counts the attempt and pushes next_attempt_at to `leaseUntil`,
     * so nobody else sends them meanwhile and a worker that dies only delays them until the
     * lease ends. One statement: no transaction is held while sending.
     */
    async claimDue(now: Date, limit: number, leaseUntil: Date): Promise<ClaimedDelivery[]> {
      const rows = await run.rows(
        sql`WITH due AS (
              SELECT id FROM webhook_deliveries
               WHERE status = 'pending' AND next_attempt_at <= ${now}
               ORDER BY next_attempt_at, id
               LIMIT ${limit}
               FOR UPDATE SKIP LOCKED
            )
            UPDATE webhook_deliveries d
               SET next_attempt_at = ${leaseUntil}, attempt_count = d.attempt_count + 1, updated_at = ${now}
              FROM due, webhook_events e
             WHERE d.id = due.id AND e.id = d.event_id
         RETURNING d.id, d.endpoint_id, d.attempt_count, e.id AS event_id, e.organization_id, e.project_id, e.type,
                   e.user_id, e.actor_type, e.actor_id, e.target_id, e.reason, e.details, e.user_snapshot, e.occurred_at`,
        claimedRow,
      );
      return rows
        .map((r) => ({
          id: r.id,
          endpointId: r.endpoint_id,
          attempt: r.attempt_count,
          event: {
            id: r.event_id,
            organizationId: r.organization_id,
            projectId: r.project_id,
            type: r.type,
            userId: r.user_id,
            actorType: r.actor_type,
            actorId: r.actor_id,
            targetId: r.target_id,
            reason: r.reason,
            details: r.details,
            userSnapshot: r.user_snapshot,
            occurredAt: r.occurred_at,
          },
        }))
        .sort((a, b) => a.event.occurredAt.getTime() - b.event.occurredAt.getTime() || a.id.localeCompare(b.id));
    },

    /** Appends the attempt to the log (the last KEPT_ATTEMPTS stay) and applies what follows. */
    async recordAttempt(id: string, attempt: WebhookAttempt, outcome: AttemptOutcome): Promise<void> {
      const record: WebhookAttemptRecord = {
        at: attempt.at.toISOString(),
        status: attempt.status,
        latency_ms: attempt.latencyMs,
        error: attempt.error,
        excerpt: attempt.excerpt,
      };
      const next = outcome.status === "pending" ? outcome.retryAt : null;
      await run.execute(
        sql`UPDATE webhook_deliveries d
               SET status = ${outcome.status}, next_attempt_at = ${next}, updated_at = ${clock.now()},
                   attempts = (SELECT COALESCE(jsonb_agg(x ORDER BY n), '[]'::jsonb)
                                 FROM (SELECT x, n FROM jsonb_array_elements(d.attempts || jsonb_build_array(${JSON.stringify(record)}::jsonb))
                                         WITH ORDINALITY AS a(x, n)
                                       ORDER BY n DESC LIMIT ${KEPT_ATTEMPTS}) kept)
             WHERE d.id = ${id}`,
      );
    },

    /** The endpoint is gone or disabled: the delivery is not sent. */
    async abandon(id: string, why: string): Promise<void> {
      await this.recordAttempt(
        id,
        { at: clock.now(), status: 0, latencyMs: 0, error: why, excerpt: "" },
        { status: "failed" },
      );
    },

    /** One page of an endpoint's deliveries, newest event first (`limit + 1` rows; see toPage). */
    async list(
      projectId: string,
      endpointId: string,
      status: DeliveryStatus | undefined,
      page: PageRequest,
    ): Promise<WebhookDelivery[]> {
      const after = page.after ? sql` AND (d.created_at, d.id) < (${page.after.createdAt}, ${page.after.id})` : sql``;
      const only = status ? sql` AND d.status = ${status}` : sql``;
      const rows = await run.rows(
        sql`${SELECT_DELIVERY}
             WHERE d.project_id = ${projectId} AND d.endpoint_id = ${endpointId}${only}${after}
             ORDER BY d.created_at DESC, d.id DESC LIMIT ${page.limit + 1}`,
        deliveryRow,
      );
      return rows.map(toDelivery);
    },

    /**
     * The organization of a delivery's endpoint, or null: for the operator's CLI, which may name
     * a delivery without its organization (docs/cli.md), and then acts inside that one.
     */
    async organizationOf(id: string): Promise<string | null> {
      const found = await run.first(
        sql`SELECT w.organization_id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
             WHERE d.id = ${id}`,
        organizationRow,
      );
      return found?.organization_id ?? null;
    },

    /** A delivery to one of the organization's endpoints, or null. */
    async get(organizationId: string, id: string): Promise<WebhookDelivery | null> {
      const found = await run.first(
        sql`${SELECT_DELIVERY} JOIN webhook_endpoints w ON w.id = d.endpoint_id
             WHERE d.id = ${id} AND w.organization_id = ${organizationId}`,
        deliveryRow,
      );
      return found ? toDelivery(found) : null;
    },

    /** Due now, on a fresh schedule; the log keeps the earlier attempts. False when not the organization's. */
    async replay(organizationId: string, id: string): Promise<boolean> {
      const now = clock.now();
      const replayed = await run.affected(
        sql`UPDATE webhook_deliveries d SET status = 'pending', attempt_count = 0, next_attempt_at = ${now}, updated_at = ${now}
              FROM webhook_endpoints w
             WHERE d.id = ${id} AND w.id = d.endpoint_id AND w.organization_id = ${organizationId}`,
      );
      return replayed > 0;
    },

    /**
     * SendTestWebhook: an event of its own, in the endpoint's project, for this endpoint only;
     * the delivery's id, or null when the endpoint is not the organization's.
     */
    async enqueueTest(organizationId: string, endpointId: string): Promise<string | null> {
      const now = clock.now();
      const created = await run.first(
        sql`WITH endpoint AS (
              SELECT id, organization_id, project_id FROM webhook_endpoints
               WHERE id = ${endpointId} AND organization_id = ${organizationId}
            ), event AS (
              INSERT INTO webhook_events (id, organization_id, project_id, type, actor_type, actor_id, target_id, occurred_at)
              SELECT ${newId("evt", now.getTime())}, organization_id, project_id, ${TEST_EVENT_TYPE}, 'member', '', id, ${now}
                FROM endpoint
              RETURNING id
            )
            INSERT INTO webhook_deliveries (id, event_id, endpoint_id, project_id, next_attempt_at, created_at, updated_at)
            SELECT ${newId("whd", now.getTime())}, event.id, endpoint.id, endpoint.project_id, ${now}, ${now}, ${now}
              FROM event, endpoint
            RETURNING id`,
        idRow,
      );
      return created?.id ?? null;
    },

    /**
     * DeleteUser's `user.deleted`, which its audit row cannot carry (it names a pseudonym): the
     * event names the user, without a snapshot (the application knows whom the id names), for
     * the endpoints that want it; in the caller's transaction, with the deletion.
     */
    async enqueueUserDeleted(
      organizationId: string,
      projectId: string,
      userId: string,
      actor: { type: string; id: string },
    ): Promise<void> {
      const now = clock.now();
      await run.execute(
        sql`SELECT webhook_enqueue(${newId("evt", now.getTime())}, ${organizationId}, ${projectId}, 'user.deleted',
              ${userId}, ${actor.type}, ${actor.id}, ${userId}, NULL, '{}'::jsonb, NULL, ${now})`,
      );
    },

    /**
     * DeleteUser: the stored events keep the user's id (the application's reference) but no
     * longer what the user was (email, phone, metadata), once nothing is left to deliver.
     */
    async forgetUser(projectId: string, userId: string): Promise<void> {
      await run.execute(
        sql`UPDATE webhook_events e SET user_snapshot = NULL
             WHERE e.project_id = ${projectId} AND e.user_id = ${userId} AND e.user_snapshot IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')`,
      );
    },

    /** Retention: events older than `before` go with their deliveries, unless one is still pending. */
    async deleteOlderThan(before: Date): Promise<number> {
      return run.affected(
        sql`DELETE FROM webhook_events e WHERE e.occurred_at < ${before}
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')`,
      );
    },
  };
}

export type WebhookDeliveriesRepository = ReturnType<typeof webhookDeliveriesRepository>;
