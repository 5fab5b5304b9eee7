import type { SecretBox } from "../crypto/secret-box.js";
import type { AuditEventInput } from "../domain/audit.js";
import type { Clock } from "../domain/clock.js";
import { DISABLE_AFTER_FAILING_MS, RETRY_DELAYS_S, type WebhookAttempt } from "../domain/webhooks.js";
import type { Logger } from "../log.js";
import { countWebhookDisabled, observeWebhookAttempt } from "../metrics/hooks.js";
import type { AllowHosts } from "../outbound/allow-hosts.js";
import { postJson } from "../outbound/post.js";
import { signingHeaders } from "../outbound/standard-webhooks.js";
import type { Database } from "../store/database.js";
import type { AttemptOutcome, ClaimedDelivery } from "../store/repositories/webhook-deliveries.js";
import { STOP_WAIT_MS, workerLoop } from "../worker-loop.js";
import { webhookBody } from "./payload.js";

export interface WebhookWorker {
  start(): void;
  /** Look for due deliveries now (after a replay or a test event). */
  kick(): void;
  stop(): Promise<void>;
}

export interface WebhookWorkerDeps {
  db: Database;
  secrets: SecretBox;
  clock: Clock;
  logger: Logger;
  allow: AllowHosts;
  /** One attempt's deadline (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** How often the deliveries are polled (WEBHOOK_POLL_MS): events are written by a trigger, unseen by this process. */
  pollMs: number;
  audit: (event: AuditEventInput) => Promise<void>;
}

/** Deliveries sent at once by one instance: one slow receiver does not hold up the others. */
const BATCH = 20;
/** A claimed delivery is not picked up by another instance for this long: longer than any attempt. */
const LEASE_MS = 2 * 60_000;

/** What follows the `attempt`-th failed attempt (1-based): the next try, or giving up. */
export function afterFailure(attempt: number, now: Date): AttemptOutcome {
  const delay = RETRY_DELAYS_S[attempt - 1];
  return delay === undefined
    ? { status: "failed" }
    : { status: "pending", retryAt: new Date(now.getTime() + delay * 1000) };
}

// Delivers the webhook outbox as the mail worker delivers mail: rows are claimed with SKIP
// LOCKED and leased by one statement, then sent outside any transaction, so any number of
// instances deliver each due attempt once. A crash between claim and answer leaves the row
// leased: it is sent again when the lease ends, with the same webhook-id (at least once).
export function createWebhookWorker(deps: WebhookWorkerDeps): WebhookWorker {
  const { db, clock, logger } = deps;
  const loop = workerLoop({
    drain,
    intervalMs: deps.pollMs,
    onError: (err) => logger.warn({ err }, "webhook delivery: cannot read the deliveries; will retry"),
  });

  async function drain(): Promise<void> {
    while (loop.active()) {
      const now = clock.now();
      const batch = await db.repos.webhookDeliveries.claimDue(now, BATCH, new Date(now.getTime() + LEASE_MS));
      await Promise.all(batch.map(deliver));
      if (batch.length < BATCH) return;
    }
  }

  async function deliver(delivery: ClaimedDelivery): Promise<void> {
    const { webhookDeliveries, webhookEndpoints } = db.repos;
    const state = await webhookEndpoints.signingState(delivery.endpointId, clock.now(), deps.secrets);
    if (!state) return; // deleted meanwhile: its deliveries went with it
    if (!state.endpoint.enabled) {
      await webhookDeliveries.abandon(delivery.id, "not sent: the endpoint is disabled");
      return;
    }
    const body = webhookBody(delivery.event);
    const secrets = [state.secrets.current, ...(state.secrets.previous ? [state.secrets.previous] : [])];
    // The signature's time is the wall clock's: receivers compare it with theirs.
    const headers = signingHeaders(delivery.event.id, new Date(), body, secrets);
    const at = clock.now();
    const result = await postJson(state.endpoint.url, body, headers, { timeoutMs: deps.timeoutMs, allow: deps.allow });
    observeWebhookAttempt(result.ok, result.latencyMs / 1000);
    const attempt: WebhookAttempt = {
      at,
      status: result.status,
      latencyMs: Math.round(result.latencyMs),
      error: result.error,
      excerpt: result.excerpt,
    };
    const fields = {
      delivery_id: delivery.id,
      event_id: delivery.event.id,
      endpoint_id: delivery.endpointId,
      attempt: delivery.attempt,
      status: result.status,
    };
    if (result.ok) {
      await webhookDeliveries.recordAttempt(delivery.id, attempt, { status: "succeeded" });
      await webhookEndpoints.recordSuccess(delivery.endpointId);
      logger.debug(fields, "webhook delivered");
      return;
    }
    const outcome = afterFailure(delivery.attempt, clock.now());
    await webhookDeliveries.recordAttempt(delivery.id, attempt, outcome);
    logger.warn(
      {
        ...fields,
        err: result.detail ?? result.error,
        retry_at: outcome.status === "pending" ? outcome.retryAt.toISOString() : null,
      },
      outcome.status === "pending" ? "webhook delivery failed; will retry" : "webhook delivery failed; giving up",
    );
    if (await webhookEndpoints.recordFailure(delivery.endpointId, clock.now(), DISABLE_AFTER_FAILING_MS)) {
      countWebhookDisabled();
      logger.warn({ endpoint_id: delivery.endpointId }, "webhook endpoint disabled: every attempt failed for 3 days");
      await deps.audit({
        type: "webhook.disabled",
        organizationId: state.endpoint.organizationId,
        projectId: state.endpoint.projectId,
        targetId: state.endpoint.id,
        reason: "failing",
        details: { url: state.endpoint.url, last_error: result.error.slice(0, 200) },
        origin: { actor: { type: "anonymous", id: "" }, ip: "", userAgent: "" },
      });
    }
  }

  return { start: loop.start, kick: loop.kick, stop: () => loop.stop(STOP_WAIT_MS) };
}
