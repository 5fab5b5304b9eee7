import type { Config } from "../config.js";
import { newId } from "../crypto/ids.js";
import type { SecretBox } from "../crypto/secret-box.js";
import type { Clock } from "../domain/clock.js";
import type { Logger } from "../log.js";
import type { Database, Repositories } from "../store/database.js";
import { sealMailBody } from "./mail-body.js";
import { smtpMailer, type OutgoingMail } from "./mailer.js";
import { createDeliveryWorker } from "./worker.js";

export interface QueuedMail {
  id: string;
  to: string;
  subject: string;
}

/**
 * How flows send mail. `queue` runs inside the flow's transaction, so the message commits or
 * rolls back with what it announces; `release` runs after commit and hands it to delivery.
 */
export interface MailService {
  queue(repos: Repositories, mail: OutgoingMail): Promise<QueuedMail>;
  release(queued: QueuedMail): void;
  /** Starts the delivery worker (the server does; the CLI does not). */
  start(): void;
  /** Stops the worker and its connections; call before the database closes. */
  stop(): Promise<void>;
}

export interface MailServiceDeps {
  db: Database;
  secrets: SecretBox;
  clock: Clock;
  logger: Logger;
}

/** With SMTP_URL, a delivery worker sends the outbox; without, messages wait there for an operator. */
export function createMailService(config: Config, deps: MailServiceDeps): MailService {
  const { secrets, logger } = deps;
  const worker = config.smtpUrl
    ? createDeliveryWorker({ ...deps, mailer: smtpMailer(config.smtpUrl, config.smtpFrom), retryMs: config.mailRetryMs })
    : undefined;
  return {
    async queue(repos, mail) {
      const id = newId("msg");
      await repos.outbox.enqueue({
        id,
        channel: "email",
        recipient: mail.to,
        subject: mail.subject,
        sealedBody: sealMailBody(secrets, id, mail),
      });
      return { id, to: mail.to, subject: mail.subject };
    },
    release(queued) {
      // Recipient and subject only: the body holds a secret link.
      const fields = { mail_id: queued.id, to: queued.to, subject: queued.subject };
      if (worker) {
        logger.info(fields, "mail queued");
        worker.kick();
      } else {
        logger.info(fields, "SMTP_URL is not set: mail kept in the outbox (npm run gatehouse -- outbox list)");
      }
    },
    start: () => worker?.start(),
    stop: async () => worker?.stop(),
  };
}
