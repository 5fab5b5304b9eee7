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
  /** The address already signs in to Gatehouse (another organization): accepting asks for that password. */
  hasPassword?: boolean;
}

export function invitationMail(input: InvitationMailInput): MailContent {
  const who = input.inviterEmail ? `${input.inviterEmail} has invited you` : "You have been invited";
  const until = input.expiresAt
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");
  const subject = `You are invited to join ${input.organizationName} on Gatehouse`;
  const text = [
    `${who} to join ${input.organizationName} on Gatehouse as ${input.role}.`,
    "",
    input.hasPassword
      ? "Open this link and enter your current Gatehouse password to accept the invitation:"
      : "Open this link to choose a password and accept the invitation:",
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

export interface MemberPasswordResetMailInput {
  /** `{PUBLIC_URL}?token=…&type=member_password_reset`. */
  link: string;
  /** Minutes the link stays valid. */
  validMinutes: number;
}

/** The console's address with the token and link type; the console posts the token to ResetMemberPassword. */
export function memberPasswordResetLink(publicUrl: string, token: string): string {
  return `${publicUrl}?token=${encodeURIComponent(token)}&type=member_password_reset`;
}

export function memberPasswordResetMail(input: MemberPasswordResetMailInput): MailContent {
  const subject = "Reset your Gatehouse password";
  const text = [
    "Someone asked to reset the password you sign in to Gatehouse with.",
    "",
    "Open this link to choose a new password:",
    input.link,
    "",
    `The link works once and expires in ${input.validMinutes} minutes. Setting a new password signs you out of every organization on every device.`,
    "If you did not ask for this, ignore this email: your password stays as it is.",
    "",
  ].join("\n");
  const html = [
    "<p>Someone asked to reset the password you sign in to Gatehouse with.</p>",
    `<p><a href="${escapeHtml(input.link)}">Choose a new password</a></p>`,
    `<p>The link works once and expires in ${input.validMinutes} minutes. Setting a new password signs you out of every organization on every device.</p>`,
    "<p>If you did not ask for this, ignore this email: your password stays as it is.</p>",
  ].join("\n");
  return { subject, text, html };
}
