import { hostedPagesPath } from "../domain/redirects.js";
import { escapeHtml } from "./html.js";
import type { MailContent } from "./mailer.js";

// An end user's invitation by the project's administrator (InviteUser). The link opens the
// project's hosted page where the invited person chooses a password:
// `{PUBLIC_URL}/v1/auth/{login_id}/reset-password?token=…&type=invitation`, with the
// `redirect_url` the page sends the person to afterwards when the administrator named one.

export interface UserInvitationMailInput {
  /** The project's display name (or its name). */
  projectName: string;
  link: string;
  expiresAt: Date;
}

/**
 * The hosted page's address with the token and link type. `destination` is the administrator's
 * `redirect_url`, carried as the page's `?redirect_url=` (the page server checks it again);
 * empty: the page ends at sign-in, which leads to the project's redirect_url.
 */
export function userInvitationLink(publicUrl: string, loginId: string, token: string, destination: string): string {
  const url = new URL(`${publicUrl}${hostedPagesPath(loginId)}reset-password`);
  url.searchParams.set("token", token);
  url.searchParams.set("type", "invitation");
  if (destination !== "") url.searchParams.set("redirect_url", destination);
  return url.toString();
}

export function userInvitationMail(input: UserInvitationMailInput): MailContent {
  const until = input.expiresAt
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");
  const subject = `You are invited to ${input.projectName}`;
  const text = [
    `You have been invited to create your ${input.projectName} account.`,
    "",
    "Open this link to choose a password:",
    input.link,
    "",
    `The link works once and expires on ${until}.`,
    "If you did not expect this invitation, ignore this email.",
    "",
  ].join("\n");
  const html = [
    `<p>You have been invited to create your <strong>${escapeHtml(input.projectName)}</strong> account.</p>`,
    `<p><a href="${escapeHtml(input.link)}">Choose your password</a></p>`,
    `<p>The link works once and expires on ${escapeHtml(until)}. If you did not expect this invitation, ignore this email.</p>`,
  ].join("\n");
  return { subject, text, html };
}
