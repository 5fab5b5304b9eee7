import { hashToken, randomToken } from "../../crypto/tokens.js";
import { normalizeEmail, type Project } from "../../domain/account.js";
import type { User } from "../../domain/auth.js";
import { DomainError } from "../../domain/errors.js";
import { wordedMail } from "../../notify/message-templates/worded.js";
import { messageLanguage } from "../../i18n/messages.js";
import type { Repositories } from "../../store/database.js";
import type { ConsumedUserToken } from "../../store/repositories/user-tokens.js";
import type { FlowDeps } from "../deps.js";
import { emailLink } from "./email-links.js";

// A user's own email change, confirmed by the new address before it takes effect. Switching at
// once would let whoever holds a stolen access token move the account to an address of theirs
// and then take it over with a password reset; so the address waits in users.new_email, the new
// address gets a single-use link (user_tokens, kind email_change, bound to that address) and
// the current address a notice. Until the link is used the user signs in with the current
// address; a password reset (a proof of the current address) withdraws the change.

/** Email change links work for 24 hours, once, like verification links (EMAIL_VERIFICATION_TTL_MS). */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

export interface PendingEmailChange {
  address: string;
  expiresAt: Date;
}

export const emailExists = () =>
  new DomainError("EMAIL_EXISTS", "a user with this email already exists in this project");

/** The change to record for `address`; EMAIL_EXISTS when a user of the project signs in with it. */
export async function proposeEmailChange(
  deps: Pick<FlowDeps, "clock">,
  repos: Repositories,
  project: Project,
  address: string,
): Promise<PendingEmailChange> {
  if (await repos.users.emailTaken(project.id, address)) throw emailExists();
  return { address: address.trim(), expiresAt: new Date(deps.clock.now().getTime() + EMAIL_CHANGE_TTL_MS) };
}

/**
 * Where UpdateUser's email change to `address` sends mail, so that each one is counted against
 * the send limits before the transaction: nothing for the current address in another spelling;
 * an admin's change mails the verification link to the new address (queueVerificationEmail);
 * a user's own change mails the confirmation link to the new address and the notice to the
 * current one, when there is one (queueEmailChange). update-user.ts decides by the same rules.
 */
export function emailChangeRecipients(user: User, address: string, admin: boolean): string[] {
  const to = address.trim();
  if (sameAddress(to, user.email)) return [];
  if (admin || user.email === "") return [to];
  return [to, user.email];
}

export function sameAddress(a: string, b: string): boolean {
  return normalizeEmail(a) === normalizeEmail(b);
}

/**
 * Issues the confirmation link (retiring the user's earlier ones) and queues its email to the
 * new address and the notice to the current one, inside the caller's transaction: they go to
 * delivery once it commits. `user` is the user as it was before the change (its current address).
 */
export async function queueEmailChange(
  deps: Pick<FlowDeps, "config" | "logger" | "mail">,
  repos: Repositories,
  project: Project,
  user: User,
  change: PendingEmailChange,
  /** The request's Accept-Language: the mails' language when the user chose none. */
  acceptLanguage?: string,
): Promise<void> {
  const token = randomToken("gec");
  const language = messageLanguage({ userLocale: user.locale, acceptLanguage, projectDefault: project.defaultLocale });
  await repos.userTokens.issue(project.id, {
    userId: user.id,
    kind: "email_change",
    tokenHash: hashToken(token),
    email: normalizeEmail(change.address),
    expiresAt: change.expiresAt,
  });
  const to = { project, language, userLocale: user.locale };
  const confirm = await wordedMail(deps, repos, to, "email_change_confirm", {
    projectName: project.name,
    newEmail: change.address,
    link: emailLink(project.redirectUrl || deps.config.publicUrl, token, "email_change"),
    expiresAt: change.expiresAt,
  });
  await deps.mail.queue(repos, { to: change.address, ...confirm });
  // A user signed up by SMS may have no address yet: then there is no one else to tell.
  if (user.email !== "") {
    const notice = await wordedMail(deps, repos, to, "email_change_notice", {
      projectName: project.name,
      currentEmail: user.email,
      newEmail: change.address,
    });
    await deps.mail.queue(repos, { to: user.email, ...notice });
  }
}

/**
 * VerifyEmail with an email_change link: the pending address becomes the user's email,
 * verified (the link proved it). A link for a change that was replaced, withdrawn or
 * overridden by an admin is INVALID_LINK. Another user who took the address in the meantime
 * makes the update a UniqueViolation on users_project_email_key: the caller maps it to
 * EMAIL_EXISTS, and the transaction (with the link's consumption) rolls back.
 */
export async function confirmEmailChange(
  repos: Repositories,
  project: Project,
  user: User,
  link: ConsumedUserToken,
  invalid: () => Error,
): Promise<User> {
  if (user.newEmail === null || normalizeEmail(user.newEmail) !== normalizeEmail(link.email)) throw invalid();
  const updated = await repos.users.update(project.id, user.id, {
    email: user.newEmail,
    emailVerified: true,
    newEmail: null,
  });
  if (!updated) throw invalid();
  return updated;
}
