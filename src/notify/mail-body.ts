import type { SecretBox } from "../crypto/secret-box.js";
import type { OutboxMessage } from "../domain/outbox.js";
import type { MailContent } from "./mailer.js";

// A mail body holds secret links, so the outbox keeps it sealed, bound to the message id:
// a body copied onto another row does not open.

export type MailBody = Omit<MailContent, "subject">;

export function sealMailBody(secrets: SecretBox, id: string, body: MailBody): string {
  return secrets.seal(JSON.stringify({ text: body.text, html: body.html }), id);
}

/** Throws when the message was sent (body dropped), the key changed, or the row was altered. */
export function openMailBody(secrets: SecretBox, message: OutboxMessage): MailBody {
  if (message.sealedBody === null) throw new Error("outbox: the message was sent and its body dropped");
  const parsed = JSON.parse(secrets.open(message.sealedBody, message.id).toString("utf8")) as {
    text?: unknown;
    html?: unknown;
  };
  // Sealed by the outbox as strings; anything else is no body rather than "[object Object]".
  return {
    text: typeof parsed.text === "string" ? parsed.text : "",
    html: typeof parsed.html === "string" ? parsed.html : "",
  };
}
