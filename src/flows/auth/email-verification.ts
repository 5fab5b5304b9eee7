import { hashToken, randomToken } from "../../crypto/tokens.js";
import { normalizeEmail, type Project } from "../../domain/account.js";
import type { User } from "../../domain/auth.js";
import { DomainError } from "../../domain/errors.js";
import type { QueuedMail } from "../../notify/outbox.js";
import { verificationMail } from "../../notify/verification-templates.js";
import type { Repositories } from "../../store/database.js";
import type { FlowDeps } from "../deps.js";

/** Email verification links work for 24 hours, once. */
export const EMAIL_VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Issues a verification link for the user's current address and queues its email, inside the
 * caller's transaction (release the answer after commit). The link is bound to that address:
 * it stops working once the user's email changes, and issuing it retires earlier links.
 */
export async function queueVerificationEmail(
  deps: FlowDeps,
  repos: Repositories,
  project: Project,
  user: User,
  reason: "signup" | "email_change",
): Promise<QueuedMail> {
  const token = randomToken("gev");
  const expiresAt = new Date(deps.clock.now().getTime() + EMAIL_VERIFICATION_TTL_MS);
  await repos.userTokens.issue(project.id, {
    userId: user.id,
    kind: "email_verification",
    tokenHash: hashToken(token),
    email: normalizeEmail(user.email),
    expiresAt,
  });
  const content = verificationMail({
    projectName: project.name,
    email: user.email,
    link: emailVerificationLink(project.redirectUrl || deps.config.publicUrl, token),
    expiresAt,
    reason,
  });
  return deps.mail.queue(repos, { to: user.email, ...content });
}

/** API.md section 5: `{redirect_url}?token=…&type=email_verification` (joined with `&` when the URL has a query). */
export function emailVerificationLink(redirectUrl: string, token: string): string {
  const separator = redirectUrl.includes("?") ? "&" : "?";
  return `${redirectUrl}${separator}token=${encodeURIComponent(token)}&type=email_verification`;
}

/**
 * VerifyEmail: burns the link and marks the address verified. An unknown, used or expired
 * link, or one for an address the user no longer has, is INVALID_LINK.
 */
export async function verifyEmail(deps: FlowDeps, project: Project, token: string): Promise<User> {
  const invalid = () => new DomainError("INVALID_LINK", "this verification link is invalid, used or expired");
  const now = deps.clock.now();
  return deps.db.transaction(async (repos) => {
    const consumed = await repos.userTokens.consume(project.id, "email_verification", hashToken(token.trim()), now);
    if (!consumed) throw invalid();
    const user = await repos.users.get(project.id, consumed.userId);
    if (!user || normalizeEmail(user.email) !== normalizeEmail(consumed.email)) throw invalid();
    if (user.emailVerified) return user;
    const updated = await repos.users.update(project.id, user.id, { emailVerified: true });
    if (!updated) throw invalid();
    return updated;
  });
}
