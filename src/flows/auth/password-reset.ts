import { hashToken, randomToken } from "../../crypto/tokens.js";
import { normalizeEmail, type Project } from "../../domain/account.js";
import { DomainError } from "../../domain/errors.js";
import { requireAcceptablePassword } from "../../domain/password-policy.js";
import { allowedRedirect } from "../../domain/redirects.js";
import { messageLanguage } from "../../i18n/messages.js";
import { wordedMail } from "../../notify/message-templates/worded.js";
import { passwordResetLink } from "../../notify/password-templates.js";
import type { ClientInfo } from "../../domain/auth.js";
import { userOrigin } from "../audit/sign-in.js";
import type { FlowDeps } from "../deps.js";
import { admitSend, projectSendTarget } from "../send-gate.js";

/** Password reset links work for 15 minutes (auth.proto, RequestPasswordReset). */
export const PASSWORD_RESET_TTL_MS = 15 * 60 * 1000;

/** One answer for every address, registered or not. */
export const PASSWORD_RESET_REQUESTED =
  "If an account exists for this email, a password reset link has been sent to it.";
export const PASSWORD_RESET_DONE = "Your password has been reset. Sign in with the new password.";
export const INVITATION_ACCEPTED = "Your password has been set. Sign in with it.";

/** The links ResetPassword takes: a reset link, or an admin's invitation (InviteUser). */
const PASSWORD_LINKS = ["password_reset", "invitation"] as const;

/**
 * Answers before any work that differs between a registered and an unknown address: the
 * request is counted against the client address's and the destination's limits (the same for
 * every address) and answered, and the rest runs detached. There only a registered (and not
 * disabled) user's address spends the users' send budget, and gets a token stored and the
 * mail queued; the token row and the mail commit together, and a new request
 * spends the previous link (userTokens.issue). Over the destination's limit or a spent budget
 * nothing is sent and the answer is still the same, since saying so would confirm nothing
 * useful to the owner and would be one more difference to measure.
 */
export async function requestPasswordReset(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "logger" | "mail" | "limits" | "detached">,
  project: Project,
  input: { email: string; redirectUrl?: string; ip: string; acceptLanguage?: string },
): Promise<{ message: string }> {
  // Checked before anything depends on the address, so a refusal says nothing about it.
  const linkTarget = allowedRedirect(project, input.redirectUrl ?? "", deps.config.publicUrl);
  const request = {
    kind: "password_reset",
    channel: "email",
    destination: normalizeEmail(input.email),
    overDestination: "drop",
  } as const;
  // The address and the destination count for every address alike, before the answer.
  if (
    await admitSend(deps, projectSendTarget(project), { ...request, known: false, ip: input.ip, only: "destination" })
  ) {
    deps.detached.run("password reset request", () =>
      issueReset(deps, project, input.email, linkTarget, input.acceptLanguage),
    );
  }
  return { message: PASSWORD_RESET_REQUESTED };
}

async function issueReset(
  deps: Pick<FlowDeps, "db" | "clock" | "logger" | "mail" | "limits" | "detached">,
  project: Project,
  email: string,
  linkTarget: string,
  acceptLanguage: string | undefined,
): Promise<void> {
  // Only a user's address gets a link, so only it spends the users' budget.
  const user = (await deps.db.repos.users.findCredentials(project.id, email))?.user;
  if (!user || user.disabled) return;
  const request = {
    kind: "password_reset",
    channel: "email",
    destination: normalizeEmail(user.email),
    known: true,
    overDestination: "drop",
    only: "budget",
  } as const;
  if (!(await admitSend(deps, projectSendTarget(project), request))) return;
  const token = randomToken("gpr");
  const tokenHash = hashToken(token);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MS);
  const language = messageLanguage({
    userLocale: user.locale,
    acceptLanguage,
    projectDefault: project.defaultLocale,
  });
  const input = { projectName: project.name, link: passwordResetLink(linkTarget, token), validMinutes: 15 };
  const to = { project, language, userLocale: user.locale };
  await deps.db.transaction(async (repos) => {
    const found = await repos.users.findCredentials(project.id, email);
    if (!found || found.user.disabled) return;
    await repos.userTokens.issue(project.id, {
      userId: found.user.id,
      kind: "password_reset",
      tokenHash,
      email: found.user.email,
      expiresAt,
      issuedAt: now,
    });
    const content = await wordedMail(deps, repos, to, "password_reset", input);
    await deps.mail.queue(repos, { to: found.user.email, ...content });
  });
}

/**
 * Consumes the link and sets the password (argon2id, hashed before the transaction), then ends
 * every session of the user. The link is burned by one conditional UPDATE, so of concurrent
 * uses exactly one wins. A link sent to an address the user no longer has is not honoured.
 * Also works for a user without a password (OTP, magic link or SSO sign-ups).
 *
 * Using the link proved control of the address, so it is marked verified; and a pending email
 * change is withdrawn: the notice of a change the owner did not ask for tells it to reset the
 * password, and the reset must stop the change as well as the sessions of whoever asked.
 *
 * An invitation link (InviteUser) is taken the same way: the invited person chooses the first
 * password, which also verifies the address. Whichever link sets the password, the user's other
 * live reset and invitation links stop working.
 */
export async function resetPassword(
  deps: Pick<FlowDeps, "db" | "clock" | "passwords">,
  project: Project,
  input: { resetToken: string; newPassword: string },
  client: ClientInfo,
): Promise<{ message: string }> {
  requireAcceptablePassword(input.newPassword);
  const passwordHash = await deps.passwords.hash(input.newPassword);
  const kind = await deps.db.transaction(async (repos) => {
    const now = deps.clock.now();
    const consumed = await repos.userTokens.consume(project.id, PASSWORD_LINKS, hashToken(input.resetToken), now);
    const user = consumed ? await repos.users.get(project.id, consumed.userId) : null;
    if (!consumed || !user || normalizeEmail(user.email) !== normalizeEmail(consumed.email)) {
      throw new DomainError("INVALID_LINK", "this password reset link is invalid, used or expired");
    }
    await repos.users.update(project.id, user.id, { passwordHash, emailVerified: true, newEmail: null });
    await repos.userTokens.withdraw(project.id, user.id, PASSWORD_LINKS, now);
    await repos.sessions.revokeAll(project.id, user.id, now);
    // The holder of the link acts as the user: the link proves the address.
    const event = {
      type: "user.password.reset" as const,
      organizationId: project.organizationId,
      projectId: project.id,
      userId: user.id,
    };
    const details = consumed.kind === "invitation" ? { link: "invitation" } : undefined;
    await repos.auditEvents.record({ ...event, details, origin: userOrigin(user.id, client) });
    return consumed.kind;
  });
  return { message: kind === "invitation" ? INVITATION_ACCEPTED : PASSWORD_RESET_DONE };
}
