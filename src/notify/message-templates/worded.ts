import type { Project } from "../../domain/account.js";
import type { Language } from "../../i18n/languages.js";
import { messageLanguage } from "../../i18n/messages.js";
import type { Logger } from "../../log.js";
import type { Repositories } from "../../store/database.js";
import { emailChangeConfirmMail, emailChangeNoticeMail } from "../email-change-templates.js";
import type { EmailChangeConfirmInput, EmailChangeNoticeInput } from "../email-change-templates.js";
import { userInvitationMail, type UserInvitationMailInput } from "../invitation-templates.js";
import type { MailContent } from "../mailer.js";
import { passwordResetMail, type PasswordResetMailInput } from "../password-templates.js";
import { magicLinkMail, mfaSms, otpMail, otpSms } from "../passwordless-templates.js";
import type { CodeMessageInput, MagicLinkMailInput } from "../passwordless-templates.js";
import { mfaFailuresNotice, type MfaFailuresNoticeInput } from "../security-notice-templates.js";
import { signupConfirmationMail, signupNoticeMail } from "../signup-templates.js";
import type { SignupConfirmationMailInput, SignupNoticeMailInput } from "../signup-templates.js";
import { verificationMail, type VerificationMailInput } from "../verification-templates.js";
import { composeMail, composeSms } from "./compose.js";
import type { VariableValue } from "./kinds.js";

// What a send flow calls instead of a built-in template function: the same input, and the
// project's own template when it has one for the user's language (compose.ts). Each kind names
// its built-in function and how its input becomes the template's variables (kinds.ts), here in
// one place, so a flow's change is one call.

interface Worded<I, Out> {
  builtIn: (input: I, language: Language) => Out;
  variables: (input: I) => Record<string, VariableValue>;
}

const worded = <I, Out>(
  builtIn: (input: I, language: Language) => Out,
  variables: (input: I) => Record<string, VariableValue>,
): Worded<I, Out> => ({ builtIn, variables });

const EMAILS = {
  email_verification: worded(
    (i: VerificationMailInput, l) => verificationMail(i, l),
    (i) => ({
      project_name: i.projectName,
      email: i.email,
      link: i.link,
      expires_at: i.expiresAt,
    }),
  ),
  signup_confirmation: worded(
    (i: SignupConfirmationMailInput, l) => signupConfirmationMail(i, l),
    (i) => ({
      project_name: i.projectName,
      link: i.link,
      valid_minutes: i.validMinutes,
    }),
  ),
  signup_notice: worded(
    (i: SignupNoticeMailInput, l) => signupNoticeMail(i, l),
    (i) => ({
      project_name: i.projectName,
      email: i.email,
    }),
  ),
  password_reset: worded(
    (i: PasswordResetMailInput, l) => passwordResetMail(i, l),
    (i) => ({
      project_name: i.projectName,
      link: i.link,
      valid_minutes: i.validMinutes,
    }),
  ),
  email_otp: worded(
    (i: CodeMessageInput, l) => otpMail(i, l),
    (i) => ({
      project_name: i.projectName,
      code: i.code,
      valid_minutes: i.validMinutes,
    }),
  ),
  magic_link: worded(
    (i: MagicLinkMailInput, l) => magicLinkMail(i, l),
    (i) => ({
      project_name: i.projectName,
      link: i.link,
      valid_minutes: i.validMinutes,
    }),
  ),
  user_invitation: worded(
    (i: UserInvitationMailInput, l) => userInvitationMail(i, l),
    (i) => ({
      project_name: i.projectName,
      link: i.link,
      expires_at: i.expiresAt,
    }),
  ),
  email_change_confirm: worded(
    (i: EmailChangeConfirmInput, l) => emailChangeConfirmMail(i, l),
    (i) => ({
      project_name: i.projectName,
      new_email: i.newEmail,
      link: i.link,
      expires_at: i.expiresAt,
    }),
  ),
  email_change_notice: worded(
    (i: EmailChangeNoticeInput, l) => emailChangeNoticeMail(i, l),
    (i) => ({
      project_name: i.projectName,
      current_email: i.currentEmail,
      new_email: i.newEmail,
    }),
  ),
  mfa_failures_notice: worded(
    (i: MfaFailuresNoticeInput, l) => mfaFailuresNotice(i, l),
    (i) => ({
      project_name: i.projectName,
      failures: i.failures,
    }),
  ),
};

const SMS = {
  sms_otp: worded(
    (i: CodeMessageInput, l) => otpSms(i, l),
    (i) => ({
      project_name: i.projectName,
      code: i.code,
      valid_minutes: i.validMinutes,
    }),
  ),
  sms_mfa: worded(
    (i: CodeMessageInput & { purpose: "enroll" | "verify" }, l) => mfaSms(i, l),
    (i) => ({
      project_name: i.projectName,
      code: i.code,
      valid_minutes: i.validMinutes,
      purpose: i.purpose,
    }),
  ),
};

export type EmailKind = keyof typeof EMAILS;
export type SmsKind = keyof typeof SMS;
type InputOf<T> = T extends Worded<infer I, unknown> ? I : never;

/** Who the message is for: the project, the language chosen, and the user's own tag when known. */
export interface Recipient {
  project: Pick<Project, "id" | "organizationId">;
  language: Language;
  /** The user's stored `locale`, which may name a language only the project's templates speak. */
  userLocale?: string | null;
}

/** A recipient's words without the project: the language chosen and the user's own tag. */
export type Words = Omit<Recipient, "project">;

/**
 * The words for a user with `userLocale` (none for an address no user has): the language
 * messageLanguage chooses, and the user's own tag beside it, which may name a language only the
 * project's templates speak.
 */
export function wordsFor(
  project: Pick<Project, "defaultLocale">,
  userLocale: string | undefined,
  acceptLanguage?: string,
): Words {
  return {
    language: messageLanguage({ userLocale, acceptLanguage, projectDefault: project.defaultLocale }),
    userLocale,
  };
}

/** The email of `kind`: the project's template for the recipient's language, else the built-in one. */
export function wordedMail<K extends EmailKind>(
  deps: { logger: Logger },
  repos: Repositories,
  to: Recipient,
  kind: K,
  input: InputOf<(typeof EMAILS)[K]>,
): Promise<MailContent> {
  const spec = EMAILS[kind] as Worded<InputOf<(typeof EMAILS)[K]>, MailContent>;
  return composeMail(
    repos,
    deps.logger,
    { project: to.project, kind, locales: [to.userLocale, to.language], variables: spec.variables(input) },
    () => spec.builtIn(input, to.language),
  );
}

/** The SMS of `kind`, as wordedMail. */
export function wordedSms<K extends SmsKind>(
  deps: { logger: Logger },
  repos: Repositories,
  to: Recipient,
  kind: K,
  input: InputOf<(typeof SMS)[K]>,
): Promise<string> {
  const spec = SMS[kind] as Worded<InputOf<(typeof SMS)[K]>, string>;
  return composeSms(
    repos,
    deps.logger,
    { project: to.project, kind, locales: [to.userLocale, to.language], variables: spec.variables(input) },
    () => spec.builtIn(input, to.language),
  );
}

/** Every kind's built-in function and variables, for the test that holds them to kinds.ts. */
export const WORDED_KINDS: Readonly<Record<EmailKind | SmsKind, Worded<never, unknown>>> = { ...EMAILS, ...SMS };
