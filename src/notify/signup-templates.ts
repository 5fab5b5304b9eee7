import { escapeHtml } from "./html.js";
import type { MailContent } from "./mailer.js";

// The two messages of a signup from a public credential (docs/security.md, "No user
// enumeration"): an address nobody has gets the link that makes the account, an address a
// user has gets a notice with no link, since nothing about that account may change because
// someone typed its address into a signup form. Every value from a user is escaped in HTML.

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

export function signupConfirmationMail(input: SignupConfirmationMailInput): MailContent {
  const subject = `Confirm your email to finish signing up to ${input.projectName}`;
  const why = `Someone, hopefully you, signed up to ${input.projectName} with this email address.`;
  const what = "Open this link to confirm the address; your account is made and you are signed in then:";
  const ignore = "If you did not sign up, ignore this email and do not open the link: no account is made without it.";
  const text = [
    why,
    "",
    what,
    input.link,
    "",
    `The link works once and expires in ${input.validMinutes} minutes.`,
    ignore,
    "",
  ].join("\n");
  const html = [
    `<p>${escapeHtml(why)}</p>`,
    `<p><a href="${escapeHtml(input.link)}">Confirm my email and finish signing up</a></p>`,
    `<p>The link works once and expires in ${input.validMinutes} minutes. ${escapeHtml(ignore)}</p>`,
  ].join("\n");
  return { subject, text, html };
}

export function signupNoticeMail(input: SignupNoticeMailInput): MailContent {
  const subject = `Someone tried to sign up to ${input.projectName} with your email address`;
  const what = `Someone tried to create a ${input.projectName} account with ${input.email}, which already has one. No account was made and yours is unchanged.`;
  const you = `If it was you, sign in to your ${input.projectName} account instead; if you forgot the password, reset it ("forgot password" with ${input.email}).`;
  const notYou = "If it was not you, there is nothing to do: nobody can use your account without your password.";
  const text = [what, "", you, notYou, ""].join("\n");
  const html = [`<p>${escapeHtml(what)}</p>`, `<p>${escapeHtml(you)}</p>`, `<p>${escapeHtml(notYou)}</p>`].join("\n");
  return { subject, text, html };
}
