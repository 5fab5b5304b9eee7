import { hashToken, randomToken } from "../../crypto/tokens.js";
import { normalizeEmail, type Project } from "../../domain/account.js";
import type { ClientInfo, User } from "../../domain/auth.js";
import { DomainError } from "../../domain/errors.js";
import { messageLanguage } from "../../i18n/messages.js";
import { wordedMail } from "../../notify/message-templates/worded.js";
import type { Repositories } from "../../store/database.js";
import { UniqueViolation } from "../../store/errors.js";
import { userOrigin } from "../audit/sign-in.js";
import type { FlowDeps } from "../deps.js";
import { confirmEmailChange, emailExists } from "./email-change.js";
import { emailLink } from "./email-links.js";

/** Email verification links work for 24 hours, once. */
export const EMAIL_VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Issues a verification link for the user's current address and queues its email, inside the
 * caller's transaction (delivered once it commits). The link is bound to that address:
 * it stops working once the user's email changes, and issuing it retires earlier links.
 */
export async function queueVerificationEmail(
  deps: Pick<FlowDeps, "config" | "clock" | "logger" | "mail">,
  repos: Repositories,
  project: Project,
  user: User,
  reason: "signup" | "email_change",
  /** Where the link points (an allowed redirect); absent: the project's redirect_url. */
  linkTarget?: string,
  /** The request's Accept-Language: the mail's language when the user chose none. */
  acceptLanguage?: string,
): Promise<void> {
  const token = randomToken("gev");
  const expiresAt = new Date(deps.clock.now().getTime() + EMAIL_VERIFICATION_TTL_MS);
  await repos.userTokens.issue(project.id, {
    userId: user.id,
    kind: "email_verification",
    tokenHash: hashToken(token),
    email: normalizeEmail(user.email),
    expiresAt,
  });
  const language = messageLanguage({ userLocale: user.locale, acceptLanguage, projectDefault: project.defaultLocale });
  const content = await wordedMail(deps, repos, { project, language, userLocale: user.locale }, "email_verification", {
    projectName: project.name,
    email: user.email,
    link: emailVerificationLink(linkTarget || project.redirectUrl || deps.config.publicUrl, token),
    expiresAt,
    reason,
  });
  await deps.mail.queue(repos, { to: user.email, ...content });
}

/** `{redirect_url}?token=…&type=email_verification`. */
export function emailVerificationLink(redirectUrl: string, token: string): string {
  return emailLink(redirectUrl, token, "email_verification");
}

/**
 * VerifyEmail: burns the link, of either kind, and answers the user.
 * - email_verification: marks the user's current address verified; a link for an address the
 *   user no longer has is INVALID_LINK.
 * - email_change: the pending address becomes the user's email (email-change.ts).
 * An unknown, used or expired link is INVALID_LINK.
 */
export async function verifyEmail(
  deps: Pick<FlowDeps, "db" | "clock">,
  project: Project,
  token: string,
  client?: ClientInfo,
): Promise<User> {
  const invalid = () => new DomainError("INVALID_LINK", "this verification link is invalid, used or expired");
  const now = deps.clock.now();
  try {
    return await deps.db.transaction(async (repos) => {
      const consumed = await repos.userTokens.consume(
        project.id,
        ["email_verification", "email_change"],
        hashToken(token.trim()),
        now,
      );
      if (!consumed) throw invalid();
      const user = await repos.users.get(project.id, consumed.userId);
      if (!user) throw invalid();
      if (consumed.kind === "email_change") {
        const changed = await confirmEmailChange(repos, project, user, consumed, invalid);
        const event = {
          type: "user.email.changed" as const,
          organizationId: project.organizationId,
          projectId: project.id,
          userId: user.id,
        };
        await repos.auditEvents.record({
          ...event,
          origin: userOrigin(user.id, client ?? { ipAddress: "", userAgent: "" }),
        });
        return changed;
      }
      if (normalizeEmail(user.email) !== normalizeEmail(consumed.email)) throw invalid();
      if (user.emailVerified) return user;
      const updated = await repos.users.update(project.id, user.id, { emailVerified: true });
      if (!updated) throw invalid();
      await repos.auditEvents.record({
        type: "user.email.verified",
        organizationId: project.organizationId,
        projectId: project.id,
        userId: user.id,
        origin: userOrigin(user.id, client ?? { ipAddress: "", userAgent: "" }),
      });
      return updated;
    });
  } catch (error) {
    // Only an email change writes an address here: another user took it since it was asked for.
    if (error instanceof UniqueViolation && error.constraint === "users_project_email_key") throw emailExists();
    throw error;
  }
}
