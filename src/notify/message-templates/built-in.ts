import { emailChangeConfirmMail, emailChangeNoticeMail } from "../email-change-templates.js";
import { userInvitationMail } from "../invitation-templates.js";
import type { MailContent } from "../mailer.js";
import { passwordResetMail } from "../password-templates.js";
import { magicLinkMail, mfaSms, otpMail, otpSms } from "../passwordless-templates.js";
import { mfaFailuresNotice } from "../security-notice-templates.js";
import { signupConfirmationMail, signupNoticeMail } from "../signup-templates.js";
import { verificationMail } from "../verification-templates.js";
import { FALLBACK_LANGUAGE, shippedLanguageOf, type Language } from "../../i18n/languages.js";
import { sampleVariables, type MessageKind } from "./kinds.js";

// Gatehouse's own wording of each kind, rendered with the kind's sample values: what
// PreviewMessageTemplate shows when the project has no template of its own.

const str = (v: unknown) => String(v);
const num = (v: unknown) => Number(v);
const date = (v: unknown) => v as Date;

/** The built-in message of `kind` in the shipped language nearest `locale`, and that language. */
export function builtInSample(
  kind: MessageKind,
  locale: string,
  projectName: string,
): { content: MailContent; language: Language } {
  const language = shippedLanguageOf(locale) ?? FALLBACK_LANGUAGE;
  const s: Record<string, unknown> = { ...sampleVariables(kind), project_name: projectName };
  const projectNameOf = { projectName };
  const sms = (text: string): MailContent => ({ subject: "", html: "", text });
  const content = ((): MailContent => {
    switch (kind) {
      case "email_verification":
        return verificationMail(
          {
            ...projectNameOf,
            email: str(s.email),
            link: str(s.link),
            expiresAt: date(s.expires_at),
            reason: "signup",
          },
          language,
        );
      case "signup_confirmation":
        return signupConfirmationMail(
          { ...projectNameOf, link: str(s.link), validMinutes: num(s.valid_minutes) },
          language,
        );
      case "signup_notice":
        return signupNoticeMail({ ...projectNameOf, email: str(s.email) }, language);
      case "password_reset":
        return passwordResetMail({ ...projectNameOf, link: str(s.link), validMinutes: num(s.valid_minutes) }, language);
      case "email_otp":
        return otpMail({ ...projectNameOf, code: str(s.code), validMinutes: num(s.valid_minutes) }, language);
      case "magic_link":
        return magicLinkMail({ ...projectNameOf, link: str(s.link), validMinutes: num(s.valid_minutes) }, language);
      case "user_invitation":
        return userInvitationMail({ ...projectNameOf, link: str(s.link), expiresAt: date(s.expires_at) }, language);
      case "email_change_confirm":
        return emailChangeConfirmMail(
          {
            ...projectNameOf,
            newEmail: str(s.new_email),
            link: str(s.link),
            expiresAt: date(s.expires_at),
          },
          language,
        );
      case "email_change_notice":
        return emailChangeNoticeMail(
          {
            ...projectNameOf,
            currentEmail: str(s.current_email),
            newEmail: str(s.new_email),
          },
          language,
        );
      case "mfa_failures_notice":
        return mfaFailuresNotice({ ...projectNameOf, failures: num(s.failures) }, language);
      case "sms_otp":
        return sms(otpSms({ ...projectNameOf, code: str(s.code), validMinutes: num(s.valid_minutes) }, language));
      case "sms_mfa":
        return sms(
          mfaSms(
            {
              ...projectNameOf,
              code: str(s.code),
              validMinutes: num(s.valid_minutes),
              purpose: s.purpose === "enroll" ? "enroll" : "verify",
            },
            language,
          ),
        );
    }
  })();
  return { content, language };
}
