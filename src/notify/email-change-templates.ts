import { escapeHtml } from "./html.js";
import type { MailContent } from "./mailer.js";

// The two messages of a user's own email change: the link that confirms it, to the new
// address, and the notice to the current one. The notice carries no link: the owner of the
// current address who did not ask for the change answers it with a password reset, which
// withdraws the change and signs out every device. Every value from a user is escaped in HTML.

export interface EmailChangeConfirmInput {
  projectName: string;
  /** The new address (the recipient). */
  newEmail: string;
  /** `{project redirect_url}?token=…&type=email_change`. */
  link: string;
  expiresAt: Date;
}

export interface EmailChangeNoticeInput {
  projectName: string;
  /** The current address (the recipient), which stays the account's until the change is confirmed. */
  currentEmail: string;
  newEmail: string;
}

const utc = (at: Date) =>
  at
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");

export function emailChangeConfirmMail(input: EmailChangeConfirmInput): MailContent {
  const subject = `Confirm your new email address for ${input.projectName}`;
  const why = `You asked to use ${input.newEmail} as the email address of your ${input.projectName} account.`;
  const until = utc(input.expiresAt);
  const text = [
    why,
    "",
    "Open this link to confirm it; the change takes effect then:",
    input.link,
    "",
    `The link works once and expires on ${until}.`,
    "If you did not ask for this, ignore this email: nothing changes.",
    "",
  ].join("\n");
  const html = [
    `<p>${escapeHtml(why)}</p>`,
    `<p><a href="${escapeHtml(input.link)}">Confirm my new email address</a></p>`,
    `<p>The link works once and expires on ${escapeHtml(until)}. If you did not ask for this, ignore this email: nothing changes.</p>`,
  ].join("\n");
  return { subject, text, html };
}

export function emailChangeNoticeMail(input: EmailChangeNoticeInput): MailContent {
  const subject = `Your ${input.projectName} email address is about to change`;
  const what = `Someone signed in to your ${input.projectName} account asked to change its email address from ${input.currentEmail} to ${input.newEmail}.`;
  const meanwhile = `Nothing changes until the new address confirms it; until then you keep signing in with ${input.currentEmail}.`;
  const ok = "If this was you, there is nothing to do.";
  const react =
    `If it was not you, reset your password now ("forgot password" with ${input.currentEmail}): ` +
    "the reset cancels the change and signs you out on every device.";
  const text = [what, meanwhile, "", ok, react, ""].join("\n");
  const html = [
    `<p>${escapeHtml(what)} ${escapeHtml(meanwhile)}</p>`,
    `<p>${escapeHtml(ok)}</p>`,
    `<p><strong>${escapeHtml(react)}</strong></p>`,
  ].join("\n");
  return { subject, text, html };
}
