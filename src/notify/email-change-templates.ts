import { FALLBACK_LANGUAGE, type Language } from "../i18n/languages.js";
import { messageWords } from "../i18n/messages.js";
import { escapeHtml, mailHtml } from "./html.js";
import type { MailContent } from "./mailer.js";

// The two messages of a user's own email change: the link that confirms it, to the new
// address, and the notice to the current one. The notice carries no link: the owner of the
// current address who did not ask for the change answers it with a password reset, which
// withdraws the change and signs out every device. In the user's language
// (catalogs/messages); every value from a user is escaped in HTML.

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

export function emailChangeConfirmMail(
  input: EmailChangeConfirmInput,
  language: Language = FALLBACK_LANGUAGE,
): MailContent {
  const words = messageWords(language);
  const { t } = words;
  const project = input.projectName;
  const why = t("email_change.confirm_why", { project, email: input.newEmail });
  const expiry = t("link.expires_on", { until: words.dateTime(input.expiresAt) });
  const ignore = t("email_change.confirm_ignore");
  const text = [why, "", t("email_change.confirm_open"), input.link, "", expiry, ignore, ""].join("\n");
  const html = mailHtml(words, [
    `<p>${escapeHtml(why)}</p>`,
    `<p><a href="${escapeHtml(input.link)}">${escapeHtml(t("email_change.confirm_button"))}</a></p>`,
    `<p>${escapeHtml(expiry)} ${escapeHtml(ignore)}</p>`,
  ]);
  return { subject: t("email_change.confirm_subject", { project }), text, html };
}

export function emailChangeNoticeMail(
  input: EmailChangeNoticeInput,
  language: Language = FALLBACK_LANGUAGE,
): MailContent {
  const words = messageWords(language);
  const { t } = words;
  const values = { project: input.projectName, current: input.currentEmail, email: input.newEmail };
  const what = t("email_change.notice_what", values);
  const meanwhile = t("email_change.notice_meanwhile", values);
  const ok = t("email_change.notice_ok");
  const react = t("email_change.notice_react", values);
  const text = [what, meanwhile, "", ok, react, ""].join("\n");
  const html = mailHtml(words, [
    `<p>${escapeHtml(what)} ${escapeHtml(meanwhile)}</p>`,
    `<p>${escapeHtml(ok)}</p>`,
    `<p><strong>${escapeHtml(react)}</strong></p>`,
  ]);
  return { subject: t("email_change.notice_subject", values), text, html };
}
