import { FALLBACK_LANGUAGE, type Language } from "../i18n/languages.js";
import { messageWords } from "../i18n/messages.js";
import { escapeHtml, mailHtml } from "./html.js";
import type { MailContent } from "./mailer.js";

// Passwordless sign-in messages: a one-time code by email or SMS, a magic link by email, in the
// recipient's language (catalogs/messages). Each names the project, since one person may use
// several applications built on Gatehouse.

export interface CodeMessageInput {
  projectName: string;
  code: string;
  validMinutes: number;
}

export function otpMail(input: CodeMessageInput, language: Language = FALLBACK_LANGUAGE): MailContent {
  const words = messageWords(language);
  const { t } = words;
  const project = input.projectName;
  const minutes = input.validMinutes;
  // Not the code: the subject is kept in the outbox and logged in the clear, the body sealed.
  const subject = t("otp.subject", { project });
  const intro = t("otp.intro", { project });
  const expiry = t("otp.expiry", { minutes });
  const ignore = t("otp.ignore");
  const text = [intro, "", `    ${input.code}`, "", expiry, ignore, ""].join("\n");
  const html = mailHtml(words, [
    `<p>${escapeHtml(intro)}</p>`,
    // The code reads left to right in every language.
    `<p dir="ltr" style="font-size:24px;font-weight:bold;letter-spacing:4px">${escapeHtml(input.code)}</p>`,
    `<p>${escapeHtml(expiry)} ${escapeHtml(ignore)}</p>`,
  ]);
  return { subject, text, html };
}

export function otpSms(input: CodeMessageInput, language: Language = FALLBACK_LANGUAGE): string {
  return messageWords(language).t("otp.sms", {
    code: input.code,
    project: input.projectName,
    minutes: input.validMinutes,
  });
}

/** The SMS of an MFA step: enrolling a phone, or the second factor of a sign-in. */
export function mfaSms(
  input: CodeMessageInput & { purpose: "enroll" | "verify" },
  language: Language = FALLBACK_LANGUAGE,
): string {
  const { t } = messageWords(language);
  const values = { code: input.code, project: input.projectName, minutes: input.validMinutes };
  return input.purpose === "enroll" ? t("mfa.sms.enroll", values) : t("mfa.sms.verify", values);
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

export function magicLinkMail(input: MagicLinkMailInput, language: Language = FALLBACK_LANGUAGE): MailContent {
  const words = messageWords(language);
  const { t } = words;
  const project = input.projectName;
  const expiry = t("link.expires_in", { minutes: input.validMinutes });
  const ignore = t("magic_link.ignore");
  const text = [t("magic_link.intro", { project }), input.link, "", expiry, ignore, ""].join("\n");
  const html = mailHtml(words, [
    `<p><a href="${escapeHtml(input.link)}">${escapeHtml(t("magic_link.button", { project }))}</a></p>`,
    `<p>${escapeHtml(expiry)} ${escapeHtml(ignore)}</p>`,
  ]);
  return { subject: t("magic_link.subject", { project }), text, html };
}
