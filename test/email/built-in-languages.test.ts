import { describe, expect, it } from "vitest";
import { SHIPPED_LANGUAGES, type Language } from "../../src/i18n/languages.js";
import { emailChangeConfirmMail, emailChangeNoticeMail } from "../../src/notify/email-change-templates.js";
import { userInvitationMail } from "../../src/notify/invitation-templates.js";
import type { MailContent } from "../../src/notify/mailer.js";
import { passwordResetMail } from "../../src/notify/password-templates.js";
import { magicLinkMail, mfaSms, otpMail, otpSms } from "../../src/notify/passwordless-templates.js";
import { mfaFailuresNotice } from "../../src/notify/security-notice-templates.js";
import { signupConfirmationMail, signupNoticeMail } from "../../src/notify/signup-templates.js";
import { verificationMail } from "../../src/notify/verification-templates.js";

// Every built-in end-user message, in every shipped language, as plain functions: each speaks
// its language (nothing left in English), marks its HTML with the language and direction, and
// escapes whatever a project or user chose. Threat: a project name, an address or a link that
// is markup, run by a mail client.

const EVIL = `<img src=x onerror="alert(1)">'&`;
const EVIL_EMAIL = `"<b>"@example.com`;
const EVIL_LINK = `https://app.example.com/cb?token=abc&type=x"><script>alert(1)</script>`;
const at = new Date("2030-01-02T03:04:05Z");

const mails: Record<string, (language: Language) => MailContent> = {
  otp: (l) => otpMail({ projectName: EVIL, code: "123456", validMinutes: 10 }, l),
  magicLink: (l) => magicLinkMail({ projectName: EVIL, link: EVIL_LINK, validMinutes: 15 }, l),
  passwordReset: (l) => passwordResetMail({ projectName: EVIL, link: EVIL_LINK, validMinutes: 15 }, l),
  verification: (l) =>
    verificationMail({ projectName: EVIL, email: EVIL_EMAIL, link: EVIL_LINK, expiresAt: at, reason: "signup" }, l),
  verificationChange: (l) =>
    verificationMail(
      { projectName: EVIL, email: EVIL_EMAIL, link: EVIL_LINK, expiresAt: at, reason: "email_change" },
      l,
    ),
  signupConfirmation: (l) => signupConfirmationMail({ projectName: EVIL, link: EVIL_LINK, validMinutes: 15 }, l),
  signupNotice: (l) => signupNoticeMail({ projectName: EVIL, email: EVIL_EMAIL }, l),
  emailChangeConfirm: (l) =>
    emailChangeConfirmMail({ projectName: EVIL, newEmail: EVIL_EMAIL, link: EVIL_LINK, expiresAt: at }, l),
  emailChangeNotice: (l) =>
    emailChangeNoticeMail({ projectName: EVIL, currentEmail: "me@example.com", newEmail: EVIL_EMAIL }, l),
  invitation: (l) => userInvitationMail({ projectName: EVIL, link: EVIL_LINK, expiresAt: at }, l),
  mfaFailures: (l) => mfaFailuresNotice({ projectName: EVIL, failures: 10 }, l),
};

const sms: Record<string, (language: Language) => string> = {
  otp: (l) => otpSms({ projectName: "Quill", code: "123456", validMinutes: 10 }, l),
  mfaEnroll: (l) => mfaSms({ projectName: "Quill", code: "123456", validMinutes: 10, purpose: "enroll" }, l),
  mfaVerify: (l) => mfaSms({ projectName: "Quill", code: "123456", validMinutes: 5, purpose: "verify" }, l),
};

describe("built-in messages in every shipped language", () => {
  for (const [name, render] of Object.entries(mails)) {
    it(`${name}: its own words in each language, HTML marked with the language and escaped`, () => {
      const english = render("en");
      for (const language of SHIPPED_LANGUAGES) {
        const mail = render(language);
        if (language !== "en") {
          expect(mail.subject, `${name} ${language}`).not.toBe(english.subject);
          expect(mail.text, `${name} ${language}`).not.toBe(english.text);
        }
        expect(mail.html).toMatch(new RegExp(`^<div lang="${language}" dir="${language === "ar" ? "rtl" : "ltr"}">`));
        expect(mail.html).not.toMatch(/<img|<script|<b>|onerror="/);
        // The plain-text part is not HTML: it carries the values as they are.
        expect(mail.text).not.toContain("&#60;");
      }
    });
  }

  for (const [name, render] of Object.entries(sms)) {
    it(`SMS ${name}: its own words in each language, the code first`, () => {
      for (const language of SHIPPED_LANGUAGES) {
        const body = render(language);
        expect(body.startsWith("123456 ")).toBe(true);
        if (language !== "en") expect(body, language).not.toBe(render("en"));
      }
    });
  }

  it("dates are written in the message's language, in UTC", () => {
    const text = (l: Language) =>
      verificationMail(
        { projectName: "Q", email: "a@example.com", link: "https://x.example", expiresAt: at, reason: "signup" },
        l,
      ).text;
    expect(text("en")).toContain("January 2, 2030");
    expect(text("de")).toContain("2. Januar 2030");
    expect(text("fr")).toContain("2 janvier 2030");
    expect(text("es")).toContain("2 de enero de 2030");
    for (const l of SHIPPED_LANGUAGES) expect(text(l)).toContain("UTC");
  });
});
