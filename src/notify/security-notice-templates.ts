import { FALLBACK_LANGUAGE, type Language } from "../i18n/languages.js";
import { messageWords } from "../i18n/messages.js";
import { escapeHtml, mailHtml } from "./html.js";
import type { MailContent } from "./mailer.js";

// Notices that tell a user someone else is at their account, in the user's language
// (catalogs/messages). They carry no link and no code: a notice an attacker triggers must give
// the attacker nothing, and a phishing copy of it has nothing to imitate.

export interface MfaFailuresNoticeInput {
  projectName: string;
  /** How many wrong second factors were counted. */
  failures: number;
}

/** Sent when a user's wrong second factors first reach the project's mfa_failures_per_account. */
export function mfaFailuresNotice(input: MfaFailuresNoticeInput, language: Language = FALLBACK_LANGUAGE): MailContent {
  const words = messageWords(language);
  const { t } = words;
  const project = input.projectName;
  const lines = [
    t("mfa_failures.what", { project, failures: input.failures }),
    t("mfa_failures.stopped"),
    t("mfa_failures.advice"),
  ];
  return {
    subject: t("mfa_failures.subject", { project }),
    text: [...lines, ""].join("\n"),
    html: mailHtml(
      words,
      lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    ),
  };
}
