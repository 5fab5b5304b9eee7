import { escapeHtml } from "./html.js";
import type { MailContent } from "./mailer.js";

// Passwordless sign-in messages: a one-time code by email or SMS, a magic link by email.
// Each names the project, since one person may use several applications built on Gatehouse.

export interface CodeMessageInput {
  projectName: string;
  code: string;
  validMinutes: number;
}

export function otpMail(input: CodeMessageInput): MailContent {
  // Not the code: the subject is kept in the outbox and logged in the clear, the body sealed.
  const subject = `Your ${input.projectName} sign-in code`;
  const text = [
    `Your ${input.projectName} sign-in code is:`,
    "",
    `    ${input.code}`,
    "",
    `It works once and expires in ${input.validMinutes} minutes.`,
    "If you did not try to sign in, ignore this email: nobody can sign in without the code.",
    "",
  ].join("\n");
  const html = [
    `<p>Your ${escapeHtml(input.projectName)} sign-in code is:</p>`,
    `<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${escapeHtml(input.code)}</p>`,
    `<p>It works once and expires in ${input.validMinutes} minutes. If you did not try to sign in, ignore this email: nobody can sign in without the code.</p>`,
  ].join("\n");
  return { subject, text, html };
}

export function otpSms(input: CodeMessageInput): string {
  return `${input.code} is your ${input.projectName} sign-in code. It expires in ${input.validMinutes} minutes. Do not share it.`;
}

/** The SMS of an MFA step: enrolling a phone, or the second factor of a sign-in. */
export function mfaSms(input: CodeMessageInput & { purpose: "enroll" | "verify" }): string {
  const what = input.purpose === "enroll" ? "code to confirm this phone for" : "verification code for";
  return `${input.code} is your ${what} ${input.projectName}. It expires in ${input.validMinutes} minutes. Do not share it.`;
}

export interface MagicLinkMailInput {
  projectName: string;
  link: string;
  validMinutes: number;
}

/** `redirectUrl` with `?token=…&type=magic_link` (API.md section 5). */
export function magicLinkUrl(redirectUrl: string, token: string): string {
  const url = new URL(redirectUrl);
  url.searchParams.set("token", token);
  url.searchParams.set("type", "magic_link");
  return url.toString();
}

export function magicLinkMail(input: MagicLinkMailInput): MailContent {
  const subject = `Sign in to ${input.projectName}`;
  const text = [
    `Open this link to sign in to ${input.projectName}:`,
    input.link,
    "",
    `The link works once and expires in ${input.validMinutes} minutes.`,
    "If you did not ask for it, ignore this email: nobody can sign in without the link.",
    "",
  ].join("\n");
  const html = [
    `<p><a href="${escapeHtml(input.link)}">Sign in to ${escapeHtml(input.projectName)}</a></p>`,
    `<p>The link works once and expires in ${input.validMinutes} minutes. If you did not ask for it, ignore this email: nobody can sign in without the link.</p>`,
  ].join("\n");
  return { subject, text, html };
}
