import { FALLBACK_LANGUAGE, type Language } from "../i18n/languages.js";
import { messageWords } from "../i18n/messages.js";
import { escapeHtml, mailHtml } from "./html.js";
import type { MailContent } from "./mailer.js";

// The two messages of a signup from a public credential (docs/security.md, "No user
// enumeration"): an address nobody has gets the link that makes the account, an address a
// user has gets a notice with no link, since nothing about that account may change because
// someone typed its address into a signup form. In the recipient's language
// (catalogs/messages); every value from a user is escaped in HTML.

export interface SignupConfirmationMailInput {
  projectName: string;
  /** `{redirect_url}?token=…&type=magic_link`. */
  link: string;
  validMinutes: number;
}

export interface SignupNoticeMailInput {
  projectName: string;
  /** The account's address (the recipient). */
  email: string;
}

export function signupConfirmationMail(
  input: SignupConfirmationMailInput,
  language: Language = FALLBACK_LANGUAGE,
): MailContent {
  const words = messageWords(language);
  const { t } = words;
  const project = input.projectName;
  const why = t("signup_confirmation.why", { project });
  const expiry = t("link.expires_in", { minutes: input.validMinutes });
  const ignore = t("signup_confirmation.ignore");
  const text = [why, "", t("signup_confirmation.open"), input.link, "", expiry, ignore, ""].join("\n");
  const html = mailHtml(words, [
    `<p>${escapeHtml(why)}</p>`,
    `<p><a href="${escapeHtml(input.link)}">${escapeHtml(t("signup_confirmation.button"))}</a></p>`,
    `<p>${escapeHtml(expiry)} ${escapeHtml(ignore)}</p>`,
  ]);
  return { subject: t("signup_confirmation.subject", { project }), text, html };
}

export function signupNoticeMail(input: SignupNoticeMailInput, language: Language = FALLBACK_LANGUAGE): MailContent {
  const words = messageWords(language);
  const { t } = words;
  const values = { project: input.projectName, email: input.email };
  const lines = [t("signup_notice.what", values), t("signup_notice.you", values), t("signup_notice.not_you")];
  const text = [lines[0], "", lines[1], lines[2], ""].join("\n");
  const html = mailHtml(
    words,
    lines.map((line) => `<p>${escapeHtml(line)}</p>`),
  );
  return { subject: t("signup_notice.subject", values), text, html };
}
