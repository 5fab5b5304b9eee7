import type { AuditEventType } from "./audit.js";

// The webhook event catalog, version 1 (docs/webhooks.md). Each event type is made from audit
// events (the audit_events trigger writes the event in the transaction of the change), so a
// webhook reports exactly what the audit log records. Types are added, never renamed; a change
// of a payload's meaning would be a new version.
export const WEBHOOK_CATALOG_VERSION = 1;

const FROM_AUDIT = {
  "user.created": ["user.signup", "user.created"],
  "user.invited": ["user.invited"],
  "user.updated": ["user.updated", "user.email.changed"],
  "user.deleted": ["user.deleted"],
  "user.signed_in": ["user.login.succeeded"],
  "user.sign_in_failed": ["user.login.failed"],
  "user.email_verified": ["user.email.verified"],
  "user.password_changed": ["user.password.changed", "user.password.reset"],
  "user.mfa_enrolled": ["user.mfa.enrolled"],
  "user.mfa_unenrolled": ["user.mfa.unenrolled"],
  "user.mfa_recovery_codes_regenerated": ["user.mfa.recovery_codes_regenerated"],
  "user.mfa_failures_exceeded": ["user.mfa.failures_exceeded"],
  "user.passkey_registered": ["user.passkey.registered"],
  "user.passkey_deleted": ["user.passkey.deleted"],
  "user.passkey_counter_rollback": ["user.passkey.counter_rollback"],
  "user.identity_unlinked": ["user.identity.unlinked"],
  "session.refreshed": ["token.refreshed"],
  "session.revoked": ["session.revoked", "token.revoked"],
  "session.refresh_token_reused": ["token.reuse_detected"],
  "api_key.created": ["api_key.created"],
  "api_key.revoked": ["api_key.revoked"],
  "sso_connection.created": ["sso_connection.created"],
  "sso_connection.deleted": ["sso_connection.deleted"],
  "project.updated": ["project.updated"],
  "project.signing_key_rotated": ["project.signing_key.rotated"],
  "rate_limit.exceeded": ["rate_limit.exceeded"],
  "send_budget.reached": ["send_budget.reached"],
} as const satisfies Record<string, readonly AuditEventType[]>;

export type WebhookEventType = keyof typeof FROM_AUDIT | "webhook.test";

/** Every type an endpoint may ask for (`*` aside); `webhook.test` is sent only on request. */
export const WEBHOOK_EVENT_TYPES = Object.keys(FROM_AUDIT) as (keyof typeof FROM_AUDIT)[];

/** `*`: every type, including those added later. */
export const ALL_EVENT_TYPES = "*";

export const TEST_EVENT_TYPE = "webhook.test";

const AUDIT_TO_EVENT = new Map<string, WebhookEventType>(
  Object.entries(FROM_AUDIT).flatMap(([event, audits]) =>
    audits.map((audit) => [audit, event as WebhookEventType] as const),
  ),
);

/** The event type an audit event (or the test event) is delivered as; null for audit events no webhook reports. */
export function webhookTypeOf(storedType: string): WebhookEventType | null {
  if (storedType === TEST_EVENT_TYPE) return TEST_EVENT_TYPE;
  return AUDIT_TO_EVENT.get(storedType) ?? null;
}

/** The audit types an endpoint's event types are made from: what the trigger matches. */
export function auditTypesFor(eventTypes: readonly string[]): string[] {
  return eventTypes.flatMap((type) => (type in FROM_AUDIT ? [...FROM_AUDIT[type as keyof typeof FROM_AUDIT]] : []));
}

/** The event types in `requested` that the catalog does not know (`*` is known). */
export function unknownEventTypes(requested: readonly string[]): string[] {
  return requested.filter((type) => type !== ALL_EVENT_TYPES && !(type in FROM_AUDIT));
}

export type DeliveryStatus = "pending" | "succeeded" | "failed";

export interface WebhookEndpoint {
  id: string;
  organizationId: string;
  projectId: string;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: "admin" | "failing" | null;
  createdAt: Date;
  updatedAt: Date;
  previousSecretExpiresAt: Date | null;
}

export interface WebhookAttempt {
  at: Date;
  /** 0 when no answer came. */
  status: number;
  latencyMs: number;
  error: string;
  excerpt: string;
}

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: WebhookAttempt[];
  nextAttemptAt: Date | null;
  createdAt: Date;
}

/** At most this many endpoints per project: each event is one request per endpoint. */
export const MAX_ENDPOINTS_PER_PROJECT = 10;

/** How many attempts a delivery log keeps (the oldest are dropped). */
export const KEPT_ATTEMPTS = 20;

/**
 * The retry schedule after a failed attempt, as Svix and the Standard Webhooks reference use:
 * the n-th retry waits RETRY_DELAYS_S[n - 1] seconds, 8 attempts over about 27 hours, then the
 * delivery is `failed` (ReplayWebhookDelivery sends it again).
 */
export const RETRY_DELAYS_S = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;

/** An endpoint whose every attempt failed for this long is disabled (`disabled_reason: failing`). */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * 3600_000;

/** How long the secret before a rotation still signs. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 3600_000;
