import type { SecretBox } from "../crypto/secret-box.js";
import type { OutboxMessage } from "../domain/outbox.js";
import { openMailBody } from "./mail-body.js";

/**
 * `outbox list`: pending messages with their decrypted text, for an operator who runs without
 * SMTP or whose relay is down. The output holds live links: it is for a terminal, not a log.
 */
export function formatPendingMessages(secrets: SecretBox, messages: OutboxMessage[]): string {
  const lines = [messages.length === 1 ? "1 pending message" : `${messages.length} pending messages`];
  for (const m of messages) {
    const error = m.lastError ? `, last error: ${m.lastError}` : "";
    lines.push(
      "",
      `--- ${m.id} ${m.channel} to ${m.recipient}, queued ${m.createdAt.toISOString()}, attempts ${m.attempts}${error}`,
    );
    if (m.channel === "email") lines.push(`Subject: ${m.subject}`);
    lines.push("");
    try {
      lines.push(openMailBody(secrets, m).text.trimEnd());
    } catch {
      lines.push("(the body cannot be opened: it was sealed with another GATEHOUSE_SECRET)");
    }
  }
  return lines.join("\n");
}
