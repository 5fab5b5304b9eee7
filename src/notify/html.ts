import type { MessageWords } from "../i18n/messages.js";

/** Escapes text for an HTML body or attribute: every value a user or project chose goes through it. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The HTML part of a message: its already escaped lines in a block that names the language and
 * its direction, so a right-to-left language (Arabic) is laid out as such by mail clients.
 */
export function mailHtml(words: Pick<MessageWords, "language" | "dir">, lines: readonly string[]): string {
  return [`<div lang="${words.language}" dir="${words.dir}">`, ...lines, "</div>"].join("\n");
}
