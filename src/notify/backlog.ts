import type { Config } from "../config.js";
import type { Clock } from "../domain/clock.js";
import type { OutboxChannel } from "../domain/outbox.js";
import type { Database } from "../store/database.js";

/** The outbox as /healthz reports it: what users wait for when mail or SMS is slow or down. */
export interface DeliveryBacklog {
  /** Unsent messages of the channels this instance delivers. */
  pending: number;
  /** Whole seconds since the oldest of them was queued; 0 when none waits. */
  oldest_age_s: number;
  /** The oldest waits longer than DELIVERY_BACKLOG_MAX_AGE_S. */
  stale: boolean;
}

/** The channels this instance sends (SMTP_URL, SMS_WEBHOOK_URL); a channel nobody here sends keeps its messages for an operator. */
export function deliveredChannels(config: Config): OutboxChannel[] {
  return [...(config.smtpUrl ? (["email"] as const) : []), ...(config.smsWebhookUrl ? (["sms"] as const) : [])];
}

/**
 * What /healthz says of SMS queued while this instance has no SMS transport (no
 * SMS_WEBHOOK_URL): codes someone asked for and waits on, which nothing here will send. Mail
 * without SMTP_URL is left out on purpose: an embedded instance with no relay keeps its mail for
 * the operator by design (the newcomer's `npm start`), whereas the pages offer no SMS without a
 * transport: an SMS waiting here is one an application (SendOtp, an SMS second factor) asked
 * for through the API, and its user waits for a code that never comes.
 */
export interface UndeliverableBacklog {
  sms: { pending: number; oldest_age_s: number };
}

/** The channel this instance queues but cannot send: SMS without SMS_WEBHOOK_URL; none otherwise. */
export function undeliverableChannels(config: Config): OutboxChannel[] {
  return config.smsWebhookUrl ? [] : ["sms"];
}

/** The unsent messages of `channels` (one query: repositories/outbox.ts backlog). */
export async function deliveryBacklog(
  db: Database,
  clock: Clock,
  channels: readonly OutboxChannel[],
  maxAgeS: number,
): Promise<DeliveryBacklog> {
  const rows = await db.repos.outbox.backlog(channels);
  const pending = rows.reduce((sum, r) => sum + r.pending, 0);
  const oldest = Math.min(...rows.map((r) => r.oldest?.getTime() ?? Infinity));
  const ageS = Number.isFinite(oldest) ? Math.max(0, Math.floor((clock.now().getTime() - oldest) / 1000)) : 0;
  return { pending, oldest_age_s: ageS, stale: ageS > maxAgeS };
}
