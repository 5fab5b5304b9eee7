import type { MemberRole } from "../domain/account.js";
import { escapeHtml } from "./html.js";
import type { MailContent } from "./mailer.js";

// Message texts, kept apart from the flows so wording changes touch one file. Every value
// that comes from a user (organization name, emails) is escaped in the HTML part.

export interface InvitationMailInput {
  organizationName: string;
  inviterEmail?: string;
  role: MemberRole;
  /** `{PUBLIC_URL}?token=…&type=invitation` (API.md section 5). */
  link: string;
  expiresAt: Date;
}

export function invitationMail(input: InvitationMailInput): MailContent {
  const who = input.inviterEmail ? `${input.inviterEmail} has invited you` : "You have been invited";
  const until = input.expiresAt.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
  const subject = `You are invited to join ${input.organizationName} on Gatehouse`;
  const text = [
    `${who} to join ${input.organizationName} on Gatehouse as ${input.role}.`,
    "",
    "Open this link to choose a password and accept the invitation:",
    input.link,
    "",
    `The link works once and expires on ${until}.`,
    "If you did not expect this invitation, ignore this email.",
    "",
  ].join("\n");
  const html = [
    `<p>${escapeHtml(who)} to join <strong>${escapeHtml(input.organizationName)}</strong> on Gatehouse as ${escapeHtml(input.role)}.</p>`,
    `<p><a href="${escapeHtml(input.link)}">Accept the invitation</a></p>`,
    `<p>The link works once and expires on ${escapeHtml(until)}. If you did not expect this invitation, ignore this email.</p>`,
  ].join("\n");
  return { subject, text, html };
}
