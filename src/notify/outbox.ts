import type { Config } from "../config.js";
import { newId } from "../crypto/ids.js";
import type { SecretBox } from "../crypto/secret-box.js";
import type { Clock } from "../domain/clock.js";
import type { Logger } from "../log.js";
import type { Database, Repositories } from "../store/database.js";
import { sealMailBody } from "./mail-body.js";
import { smtpMailer, type OutgoingMail } from "./mailer.js";
import { webhookSmsSender, type OutgoingSms } from "./sms.js";
import { createDeliveryWorker } from "./worker.js";
import { maskRecipient } from "./mask.js";

/**
 * How flows send mail. `queue` writes the message in the caller's transaction, so it commits or
 * rolls back with what it announces, and hands it to delivery after commit (repos.afterCommit).
 */
export interface MailService {
  queue(repos: Repositories, mail: OutgoingMail): Promise<void>;
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

/** How flows send SMS: the same outbox, the same transaction rule as mail. */
export interface SmsService {
  queue(repos: Repositories, sms: OutgoingSms): Promise<void>;
}

/**
 * One delivery worker drains the outbox for the channels configured: email with SMTP_URL, SMS
 * with SMS_WEBHOOK_URL. A channel without its setting keeps its messages for an operator
 * (`npm run gatehouse -- outbox list`). `mail.start` and `mail.stop` run that one worker.
 */
export function createOutbox(config: Config, deps: MailServiceDeps): { mail: MailService; sms: SmsService } {
  const { secrets, logger } = deps;
  const mailer = config.smtpUrl ? smtpMailer(config.smtpUrl, config.smtpFrom) : undefined;
  const smsSender = config.smsWebhookUrl ? webhookSmsSender(config.smsWebhookUrl) : undefined;
  const worker =
    mailer || smsSender
      ? createDeliveryWorker({ ...deps, mailer, sms: smsSender, retryMs: config.mailRetryMs })
      : undefined;
  // After commit, the worker looks for the message now (else its next poll finds it), or the log
  // says where it waits for an operator. Before commit the worker could not see the row yet.
  const announce = (repos: Repositories, delivered: boolean, fields: object, queued: string, kept: string) =>
    repos.afterCommit(() => {
      logger.info(fields, delivered ? queued : kept);
      if (delivered) worker?.kick();
    });
  const mail: MailService = {
    async queue(repos, mail) {
      const id = newId("msg");
      await repos.outbox.enqueue({
        id,
        channel: "email",
        recipient: mail.to,
        subject: mail.subject,
        sealedBody: sealMailBody(secrets, id, mail),
      });
      // The masked recipient and the subject only: the body holds a secret link.
      const fields = { mail_id: id, to: maskRecipient(mail.to), subject: mail.subject };
      announce(
        repos,
        mailer !== undefined,
        fields,
        "mail queued",
        "SMTP_URL is not set: mail kept in the outbox (npm run gatehouse -- outbox list)",
      );
    },
    start: () => worker?.start(),
    stop: async () => worker?.stop(),
  };
  const sms: SmsService = {
    async queue(repos, message) {
      const id = newId("msg");
      await repos.outbox.enqueue({
        id,
        channel: "sms",
        recipient: message.to,
        subject: "",
        sealedBody: sealMailBody(secrets, id, { text: message.body, html: "" }),
      });
      // The masked recipient only: the body holds a code.
      const fields = { message_id: id, to: maskRecipient(message.to) };
      announce(
        repos,
        smsSender !== undefined,
        fields,
        "sms queued",
        "SMS_WEBHOOK_URL is not set: SMS kept in the outbox (npm run gatehouse -- outbox list)",
      );
    },
  };
  return { mail, sms };
}
