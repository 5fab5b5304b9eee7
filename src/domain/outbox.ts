// Messages waiting for delivery. Written in the same transaction as whatever they announce
// (an invitation), so a mail outage can delay a message but never lose it.

/** "sms" is reserved for the SMS webhook, which follows the same outbox. */
export type OutboxChannel = "email" | "sms";

export interface OutboxMessage {
  id: string;
  channel: OutboxChannel;
  recipient: string;
  subject: string;
  /** The body, sealed with the secret box (associated data: the id); null once sent. */
  sealedBody: string | null;
  attempts: number;
  lastError: string | null;
  /** Not picked up before this time: the retry backoff, or the lease of the instance sending it. */
  nextAttemptAt: Date;
  sentAt: Date | null;
  createdAt: Date;
}
