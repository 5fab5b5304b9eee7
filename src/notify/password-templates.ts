import { FALLBACK_LANGUAGE, type Language } from "../i18n/languages.js";
import { messageWords } from "../i18n/messages.js";
import { escapeHtml, mailHtml } from "./html.js";
import type { MailContent } from "./mailer.js";

// Password reset email, in the recipient's language (catalogs/messages). The link is the
// project's redirect_url with `?token=…&type=password_reset` (API.md section 5); the
// application posts the token back to ResetPassword.

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

export function passwordResetMail(input: PasswordResetMailInput, language: Language = FALLBACK_LANGUAGE): MailContent {
  const words = messageWords(language);
  const { t } = words;
  const project = input.projectName;
  const intro = t("password_reset.intro", { project });
  const expiry = `${t("link.expires_in", { minutes: input.validMinutes })} ${t("password_reset.sign_out")}`;
  const ignore = t("password_reset.ignore");
  const text = [intro, "", t("password_reset.open"), input.link, "", expiry, ignore, ""].join("\n");
  const html = mailHtml(words, [
    `<p>${escapeHtml(intro)}</p>`,
    `<p><a href="${escapeHtml(input.link)}">${escapeHtml(t("password_reset.button"))}</a></p>`,
    `<p>${escapeHtml(expiry)}</p>`,
    `<p>${escapeHtml(ignore)}</p>`,
  ]);
  return { subject: t("password_reset.subject", { project }), text, html };
}
