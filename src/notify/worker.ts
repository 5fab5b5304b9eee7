import type { SecretBox } from "../crypto/secret-box.js";
import type { Clock } from "../domain/clock.js";
import type { OutboxChannel, OutboxMessage } from "../domain/outbox.js";
import type { Logger } from "../log.js";
import type { Database } from "../store/database.js";
import type { Mailer } from "./mailer.js";
import { openMailBody } from "./mail-body.js";
import type { SmsSender } from "./sms.js";
import { maskAddressesIn, maskRecipient } from "./mask.js";
import { STOP_WAIT_MS, workerLoop } from "../worker-loop.js";

export interface DeliveryWorker {
  start(): void;
  /** Look for due messages now (after a commit that queued one). */
  kick(): void;
  stop(): Promise<void>;
}

export interface DeliveryWorkerDeps {
  db: Database;
  /** Email delivery (SMTP_URL); without it, email waits in the outbox. */
  mailer?: Mailer;
  /** SMS delivery (SMS_WEBHOOK_URL); without it, SMS waits in the outbox. */
  sms?: SmsSender;
  secrets: SecretBox;
  clock: Clock;
  logger: Logger;
  /** First retry delay, doubled per failed attempt; also how often the outbox is polled. */
  retryMs: number;
}

const BATCH = 10;
/** A claimed message is not picked up by another instance for this long: longer than one send may take. */
const LEASE_MS = 2 * 60_000;
const MAX_BACKOFF_MS = 60 * 60_000;

export function retryDelay(retryMs: number, attempts: number): number {
  return Math.min(retryMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30), Math.max(retryMs, MAX_BACKOFF_MS));
}

// Delivers the outbox after commit. Safe with many instances: rows are claimed in a short
// transaction with SKIP LOCKED and leased, then sent outside any transaction. Polling picks up
// retries and messages another instance queued but could not send (it crashed, or was stopped).
export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const { db, mailer, sms, secrets, clock, logger, retryMs } = deps;
  const channels: OutboxChannel[] = [...(mailer ? (["email"] as const) : []), ...(sms ? (["sms"] as const) : [])];
  const loop = workerLoop({
    drain,
    intervalMs: retryMs,
    onError: (err) => logger.warn({ err: describe(err) }, "outbox delivery: cannot read the outbox; will retry"),
  });

  async function drain(): Promise<void> {
    while (loop.active()) {
      const now = clock.now();
      const batch = await db.transaction((repos) =>
        repos.outbox.claimDue(now, BATCH, new Date(now.getTime() + LEASE_MS), channels),
      );
      for (const message of batch) await deliver(message);
      if (batch.length < BATCH) return;
    }
  }

  async function deliver(message: OutboxMessage): Promise<void> {
    const fields = {
      message_id: message.id,
      channel: message.channel,
      to: maskRecipient(message.recipient),
      attempts: message.attempts,
    };
    try {
      const body = openMailBody(secrets, message);
      // claimDue was asked only for the channels with a sender (channels above).
      if (message.channel === "sms") await senderOf(sms, "sms").send({ to: message.recipient, body: body.text });
      else await senderOf(mailer, "email").send({ to: message.recipient, subject: message.subject, ...body });
    } catch (err) {
      const retryAt = new Date(clock.now().getTime() + retryDelay(retryMs, message.attempts));
      await db.repos.outbox.recordFailure(message.id, describe(err), retryAt);
      logger.warn(
        { ...fields, err: describe(err), retry_at: retryAt.toISOString() },
        `${message.channel} delivery failed; will retry`,
      );
      return;
    }
    await db.repos.outbox.markSent(message.id, clock.now());
    logger.info(fields, `${message.channel} sent`);
  }

  return {
    start: loop.start,
    kick: loop.kick,
    async stop() {
      await loop.stop(STOP_WAIT_MS);
      mailer?.close();
      sms?.close();
    },
  };
}

// Also what the outbox row keeps as its last error: a refusal that quotes the address says so masked.
function describe(err: unknown): string {
  return maskAddressesIn(err instanceof Error ? err.message : String(err));
}

function senderOf<T>(sender: T | undefined, channel: OutboxChannel): T {
  if (!sender) throw new Error(`outbox: a ${channel} message was claimed with no ${channel} sender`);
  return sender;
}
