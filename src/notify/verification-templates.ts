import { FALLBACK_LANGUAGE, type Language } from "../i18n/languages.js";
import { messageWords } from "../i18n/messages.js";
import { escapeHtml, mailHtml } from "./html.js";
import type { MailContent } from "./mailer.js";

// Email verification messages (signup, and a changed address), in the recipient's language
// (catalogs/messages), kept apart from the flows so wording changes touch one file. Every value
// that comes from a user is escaped in the HTML part.

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

export function verificationMail(input: VerificationMailInput, language: Language = FALLBACK_LANGUAGE): MailContent {
  const words = messageWords(language);
  const { t } = words;
  const values = { project: input.projectName, email: input.email };
  const why =
    input.reason === "signup" ? t("verification.why_signup", values) : t("verification.why_email_change", values);
  const expiry = t("link.expires_on", { until: words.dateTime(input.expiresAt) });
  const ignore = t("verification.ignore");
  const text = [why, "", t("verification.open"), input.link, "", expiry, ignore, ""].join("\n");
  const html = mailHtml(words, [
    `<p>${escapeHtml(why)}</p>`,
    `<p><a href="${escapeHtml(input.link)}">${escapeHtml(t("verification.button"))}</a></p>`,
    `<p>${escapeHtml(expiry)} ${escapeHtml(ignore)}</p>`,
  ]);
  return { subject: t("verification.subject", { project: input.projectName }), text, html };
}
