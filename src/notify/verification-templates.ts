import { escapeHtml } from "./html.js";
import type { MailContent } from "./mailer.js";

// Email verification messages (signup, and a changed address), kept apart from the flows so
// wording changes touch one file. Every value that comes from a user is escaped in the HTML part.

export interface VerificationMailInput {
  projectName: string;
  /** The address being verified (the recipient). */
  email: string;
  /** `{project redirect_url}?token=…&type=email_verification` (API.md section 5). */
  link: string;
  expiresAt: Date;
  /** `signup`: a new account; `email_change`: the account's address was changed to this one. */
  reason: "signup" | "email_change";
}

export function verificationMail(input: VerificationMailInput): MailContent {
  const until = input.expiresAt
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");
  const subject = `Verify your email address for ${input.projectName}`;
  const why =
    input.reason === "signup"
      ? `Welcome to ${input.projectName}. Please confirm that ${input.email} is your email address.`
      : `The email address of your ${input.projectName} account was changed to ${input.email}. Please confirm that it is yours.`;
  const text = [
    why,
    "",
    "Open this link to verify it:",
    input.link,
    "",
    `The link works once and expires on ${until}.`,
    "If you did not expect this email, ignore it.",
    "",
  ].join("\n");
  const html = [
    `<p>${escapeHtml(why)}</p>`,
    `<p><a href="${escapeHtml(input.link)}">Verify my email address</a></p>`,
    `<p>The link works once and expires on ${escapeHtml(until)}. If you did not expect this email, ignore it.</p>`,
  ].join("\n");
  return { subject, text, html };
}
