// The messages a project may word itself (SetMessageTemplate) and the variables each one's
// template sees. docs/templates.md lists the same, and test/account/message-templates-doc.test.ts
// holds the two together. The sample values are what PreviewMessageTemplate renders with and what
// validation renders a template against before it is saved.

export const MESSAGE_KINDS = [
  "email_verification",
  "signup_confirmation",
  "signup_notice",
  "password_reset",
  "email_otp",
  "magic_link",
  "user_invitation",
  "email_change_confirm",
  "email_change_notice",
  "mfa_failures_notice",
  "sms_otp",
  "sms_mfa",
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export function isMessageKind(value: string): value is MessageKind {
  return (MESSAGE_KINDS as readonly string[]).includes(value);
}

/** A value a template sees: text, a count, or a moment (formatted in the message's language). */
export type VariableValue = string | number | Date;

export interface VariableSpec {
  description: string;
  sample: VariableValue;
}

export interface KindSpec {
  description: string;
  /** SMS kinds have a text and nothing else. */
  sms: boolean;
  /**
   * The variable the message exists to carry: the message is useless without it, so the text
   * (and an email's HTML) must use it. Secret: it never goes into a subject, which the outbox
   * keeps and logs in the clear.
   */
  required?: "link" | "code";
  variables: Record<string, VariableSpec>;
}

const SAMPLE_EXPIRY = new Date("2030-01-15T14:30:00Z");

const projectName: VariableSpec = {
  description: "the project's name (an invitation: its display name, else its name)",
  sample: "Lantern Notes",
};
const validMinutes = (what: string): VariableSpec => ({
  description: `minutes the ${what} stays valid`,
  sample: 10,
});
const expiresAt = (what: string): VariableSpec => ({
  description: `when the ${what} expires, formatted in the message's language (UTC)`,
  sample: SAMPLE_EXPIRY,
});
const link = (what: string): VariableSpec => ({
  description: what,
  sample: "https://app.example.com/callback?token=sample-token&type=sample",
});
const code: VariableSpec = { description: "the six-digit one-time code", sample: "123456" };

export const KINDS: Record<MessageKind, KindSpec> = {
  email_verification: {
    description: "the link that verifies a user's email address (after signup, or an address set by an admin)",
    sms: false,
    required: "link",
    variables: {
      project_name: projectName,
      email: { description: "the address being verified (the recipient)", sample: "ada@example.com" },
      link: link("the verification link"),
      expires_at: expiresAt("link"),
    },
  },
  signup_confirmation: {
    description: "the link that finishes a signup from a public credential and signs the new user in",
    sms: false,
    required: "link",
    variables: {
      project_name: projectName,
      link: link("the confirmation link"),
      valid_minutes: validMinutes("link"),
    },
  },
  signup_notice: {
    description: "the notice to an address that already has an account when someone signs up with it (no link)",
    sms: false,
    variables: {
      project_name: projectName,
      email: { description: "the account's address (the recipient)", sample: "ada@example.com" },
    },
  },
  password_reset: {
    description: "the link that lets a user choose a new password",
    sms: false,
    required: "link",
    variables: {
      project_name: projectName,
      link: link("the password reset link"),
      valid_minutes: validMinutes("link"),
    },
  },
  email_otp: {
    description: "a one-time sign-in code by email",
    sms: false,
    required: "code",
    variables: { project_name: projectName, code, valid_minutes: validMinutes("code") },
  },
  magic_link: {
    description: "a sign-in link by email",
    sms: false,
    required: "link",
    variables: { project_name: projectName, link: link("the sign-in link"), valid_minutes: validMinutes("link") },
  },
  user_invitation: {
    description: "an administrator's invitation (InviteUser): the link where the invited person chooses a password",
    sms: false,
    required: "link",
    variables: { project_name: projectName, link: link("the invitation link"), expires_at: expiresAt("invitation") },
  },
  email_change_confirm: {
    description: "the link, sent to the new address, that confirms a user's change of email address",
    sms: false,
    required: "link",
    variables: {
      project_name: projectName,
      new_email: { description: "the new address (the recipient)", sample: "ada.new@example.com" },
      link: link("the confirmation link"),
      expires_at: expiresAt("link"),
    },
  },
  email_change_notice: {
    description: "the notice to the current address that a change of address was asked (no link)",
    sms: false,
    variables: {
      project_name: projectName,
      current_email: { description: "the current address (the recipient)", sample: "ada@example.com" },
      new_email: { description: "the address asked for", sample: "ada.new@example.com" },
    },
  },
  mfa_failures_notice: {
    description: "the notice that someone with the user's password gave too many wrong second factors (no link)",
    sms: false,
    variables: {
      project_name: projectName,
      failures: { description: "how many wrong second factors were counted", sample: 5 },
    },
  },
  sms_otp: {
    description: "a one-time sign-in code by SMS",
    sms: true,
    required: "code",
    variables: { project_name: projectName, code, valid_minutes: validMinutes("code") },
  },
  sms_mfa: {
    description: "the SMS code of a second factor: confirming a phone, or signing in",
    sms: true,
    required: "code",
    variables: {
      project_name: projectName,
      code,
      valid_minutes: validMinutes("code"),
      purpose: { description: "`enroll` (confirming this phone) or `verify` (signing in)", sample: "verify" },
    },
  },
};

/** The kind's sample values, for previews and for the render that validation tries. */
export function sampleVariables(kind: MessageKind): Record<string, VariableValue> {
  return Object.fromEntries(Object.entries(KINDS[kind].variables).map(([name, spec]) => [name, spec.sample]));
}
