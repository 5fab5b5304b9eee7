import nodemailer from "nodemailer";

/** What a template produces: the same content for every transport. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export interface OutgoingMail extends MailContent {
  to: string;
}

/**
 * Hands one message to a delivery service and resolves once it was accepted; throws
 * otherwise, and the outbox retries. SMS will get the same shape (`send({to, body})`).
 */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  /** Drops open connections; a send after close fails. */
  close(): void;
}

// Bounded so a stalled relay cannot hold a delivery past the outbox lease or a shutdown.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** SMTP through nodemailer: `smtp://host:port` (STARTTLS when offered) or `smtps://` (TLS). */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ url, ...TIMEOUTS });
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    close() {
      transport.close();
    },
  };
}
