import { hashToken, randomToken } from "../../crypto/tokens.js";
import { DomainError } from "../../domain/errors.js";
import { requireAcceptablePassword } from "../../domain/password-policy.js";
import { memberPasswordResetLink, memberPasswordResetMail } from "../../notify/templates.js";
import type { AuditOrigin } from "../../domain/audit.js";
import { normalizeEmail } from "../../domain/account.js";
import type { FlowDeps } from "../deps.js";
import { ACCOUNT_SEND_TARGET, admitSend } from "../send-gate.js";

/** Member password reset links work for 1 hour (account.proto, RequestMemberPasswordReset). */
export const MEMBER_PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

/** One answer for every address, a member identity's or not. */
export const MEMBER_PASSWORD_RESET_REQUESTED =
  "If this email signs in to Gatehouse, a password reset link has been sent to it.";
export const MEMBER_PASSWORD_RESET_DONE = "Your password has been reset. Sign in with the new password.";

/**
 * Answers before any work that differs between an identity's address and an unknown one, as the
 * end user's reset does (flows/auth/password-reset.ts): the request is counted against the
 * client address's and the destination's limits (the same for every address) and answered, and
 * the rest runs detached. There only an identity's address spends the budget, gets a token
 * stored and the mail queued; the row and the mail commit together, and a newer request
 * replaces the older link. An identity left without organizations still gets it: it may be
 * invited again, and accepting asks for its password. Over the destination's limit nothing is
 * sent and the answer is the same.
 */
export async function requestMemberPasswordReset(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "logger" | "mail" | "limits" | "detached">,
  input: { email: string; ip: string },
): Promise<{ message: string }> {
  const request = {
    kind: "password_reset",
    channel: "email",
    destination: `member:${normalizeEmail(input.email)}`,
    overDestination: "drop",
  } as const;
  // The address and the destination count for every address alike, before the answer.
  if (await admitSend(deps, ACCOUNT_SEND_TARGET, { ...request, known: false, ip: input.ip, only: "destination" })) {
    deps.detached.run("member password reset request", () => issueMemberReset(deps, input.email));
  }
  return { message: MEMBER_PASSWORD_RESET_REQUESTED };
}

async function issueMemberReset(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "logger" | "mail" | "limits" | "detached">,
  email: string,
): Promise<void> {
  // Only an identity's address gets a link, so only it spends the budget.
  if (!(await deps.db.repos.memberIdentities.findByEmail(email))) return;
  const request = {
    kind: "password_reset",
    channel: "email",
    destination: `member:${normalizeEmail(email)}`,
    known: true,
    overDestination: "drop",
    only: "budget",
  } as const;
  if (!(await admitSend(deps, ACCOUNT_SEND_TARGET, request))) return;
  const token = randomToken("gmpr");
  const tokenHash = hashToken(token);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + MEMBER_PASSWORD_RESET_TTL_MS);
  const content = memberPasswordResetMail({
    link: memberPasswordResetLink(deps.config.publicUrl, token),
    validMinutes: 60,
  });
  await deps.db.transaction(async (repos) => {
    const identity = await repos.memberIdentities.findByEmail(email);
    if (!identity) return;
    await repos.memberPasswordResets.replace(identity.id, { tokenHash, expiresAt, issuedAt: now });
    await deps.mail.queue(repos, { to: identity.email, ...content });
  });
}

/**
 * Burns the link (one conditional DELETE: of racing uses one wins), sets the identity's
 * password and revokes every management token it has, in every organization: whoever knew
 * the old password is out.
 */
export async function resetMemberPassword(
  deps: Pick<FlowDeps, "db" | "clock" | "passwords">,
  input: { token: string; newPassword: string },
  origin: AuditOrigin,
): Promise<{ message: string }> {
  requireAcceptablePassword(input.newPassword);
  const passwordHash = await deps.passwords.hash(input.newPassword);
  await deps.db.transaction(async (repos) => {
    const identityId = await repos.memberPasswordResets.consume(hashToken(input.token), deps.clock.now());
    if (!identityId) throw new DomainError("INVALID_LINK", "this password reset link is invalid, used or expired");
    await repos.memberIdentities.updatePasswordHash(identityId, passwordHash);
    await repos.managementTokens.revokeForIdentity(identityId);
    // One identity, possibly several organizations: each one's log says its member's password changed.
    for (const { member } of await repos.members.listForIdentity(identityId)) {
      const actor = { type: "member" as const, id: member.id };
      await repos.auditEvents.record({
        type: "member.password.reset",
        organizationId: member.organizationId,
        projectId: null,
        targetId: member.id,
        origin: { ...origin, actor },
      });
    }
  });
  return { message: MEMBER_PASSWORD_RESET_DONE };
}
