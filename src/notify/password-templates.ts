import { escapeHtml } from "./html.js";
import type { MailContent } from "./mailer.js";

// Password reset email. The link is the project's redirect_url with
// `?token=…&type=password_reset` (API.md section 5); the application posts the token back to
// ResetPassword.

export interface PasswordResetMailInput {
  projectName: string;
  link: string;
  /** Minutes the link stays valid. */
  validMinutes: number;
}

/** The project's redirect_url with the token and link type added to its query. */
export function passwordResetLink(redirectUrl: string, token: string): string {
  const url = new URL(redirectUrl);
  url.searchParams.set("token", token);
  url.searchParams.set("type", "password_reset");
  return url.toString();
}

export function passwordResetMail(input: PasswordResetMailInput): MailContent {
  const subject = `Reset your ${input.projectName} password`;
  const text = [
    `Someone asked to reset the password of your ${input.projectName} account.`,
    "",
    "Open this link to choose a new password:",
    input.link,
    "",
    `The link works once and expires in ${input.validMinutes} minutes. Setting a new password signs you out on every device.`,
    "If you did not ask for this, ignore this email: your password stays as it is.",
    "",
  ].join("\n");
  const html = [
    `<p>Someone asked to reset the password of your ${escapeHtml(input.projectName)} account.</p>`,
    `<p><a href="${escapeHtml(input.link)}">Choose a new password</a></p>`,
    `<p>The link works once and expires in ${input.validMinutes} minutes. Setting a new password signs you out on every device.</p>`,
    `<p>If you did not ask for this, ignore this email: your password stays as it is.</p>`,
  ].join("\n");
  return { subject, text, html };
}
