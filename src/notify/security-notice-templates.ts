import { escapeHtml } from "./html.js";
import type { MailContent } from "./mailer.js";

// Notices that tell a user someone else is at their account. They carry no link and no code:
// a notice an attacker triggers must give the attacker nothing, and a phishing copy of it has
// nothing to imitate.

export interface MfaFailuresNoticeInput {
  projectName: string;
  /** How many wrong second factors were counted. */
  failures: number;
}

/** Sent when a user's wrong second factors first reach the project's mfa_failures_per_account. */
export function mfaFailuresNotice(input: MfaFailuresNoticeInput): MailContent {
  const subject = `Someone may know your ${input.projectName} password`;
  const lines = [
    `Someone signed in to your ${input.projectName} account with your password, then gave ${input.failures} wrong verification codes.`,
    "Your second factor stopped them, and each further try now has to wait.",
    "If this was not you, your password is known to someone else: change it now, and check that your authenticator app and phone number are yours.",
  ];
  return {
    subject,
    text: [...lines, ""].join("\n"),
    html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n"),
  };
}
