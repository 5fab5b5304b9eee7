import { hashToken } from "../../crypto/tokens.js";
import type { Project } from "../../domain/account.js";
import { DomainError } from "../../domain/errors.js";
import { provesTwoFactors } from "../../domain/mfa.js";
import { isIdle, sessionEnd } from "../../domain/session-lifetime.js";
import { projectScope } from "../../limits/limits.js";
import type { ClientInfo } from "../../domain/auth.js";
import { userOrigin } from "../audit/sign-in.js";
import type { FlowDeps } from "../deps.js";
import { issuePair, type TokenPair } from "./tokens.js";
import { hookedTransaction } from "../hooks/hooked-transaction.js";
import type { Repositories } from "../../store/database.js";

/** How long after a rotation a retried or concurrent use of the old token gets the same pair. */
export const REFRESH_GRACE_MS = 10_000;

type Outcome = { pair: TokenPair } | { reused: true } | { invalid: true } | { mfaRequired: true };

const invalidToken = () => new DomainError("INVALID_REFRESH_TOKEN", "the refresh token is not valid");

/**
 * Refresh: rotates the refresh token and issues a new pair for the same session.
 *
 * The token row is locked (FOR UPDATE) for the transaction, so racing uses of one token
 * serialize: the first rotates it and seals the new pair onto the old row (associated data =
 * the old row's id); those that follow within REFRESH_GRACE_MS open and answer that same pair.
 * A use after the window is reuse: the session is revoked (committed) and the answer is
 * REFRESH_TOKEN_REUSED. Unknown, expired, revoked tokens, an ended session and a disabled or
 * deleted user all answer INVALID_REFRESH_TOKEN, telling the bearer nothing more.
 *
 * A project's custom_access_token hook is never waited for inside the transaction
 * (hooked-transaction.ts): the first round stops where the new pair would be made and rolls
 * back, releasing the lock; the hook is called with no connection held; the next round locks
 * the token and checks all of the above again. So of racing uses one still rotates and the
 * others get its pair (or reuse), whatever the hook took.
 *
 * The session's lifetimes (domain/session-lifetime.ts) are read from the project as it is now,
 * not as it was at sign-in: a session past the project's current absolute lifetime ends here
 * (its stored end is brought forward and committed, so its access tokens stop verifying and
 * ListSessions drops it), and a session idle longer than the idle timeout is refused but left
 * as it is (only renewal stops; its access tokens live out their `exp`). Both are checked before
 * the grace window: a session that may not be refreshed hands out no pair, not even a sealed one.
 *
 * So is mfa_required, also read as the project is now: a session signed in without a second
 * factor (its `amr`: one opened before the project required MFA) ends here, revoked and
 * committed so its access tokens stop verifying too, and the answer is
 * MFA_REQUIRED_BY_PROJECT; the user signs in again and is asked for a second factor, or to
 * enroll one, there.
 */
export async function refresh(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "secrets" | "verification" | "limits" | "hooks">,
  project: Project,
  refreshToken: string,
  client: ClientInfo,
): Promise<TokenPair> {
  const tokenHash = hashToken(refreshToken);
  // Counted per session before the transaction: the limiter must never wait for a connection
  // while the transaction holds one (PGlite has only one). An unknown token counts nowhere.
  const sessionId = await deps.db.repos.refreshTokens.sessionOf(project.id, tokenHash);
  if (sessionId) await deps.limits.refresh(projectScope(project), sessionId);
  const outcome = await hookedTransaction(deps, (repos) => refreshRound(deps, repos, project, tokenHash, client));
  // Thrown after commit: the revocations must stick.
  if ("mfaRequired" in outcome) {
    throw new DomainError(
      "MFA_REQUIRED_BY_PROJECT",
      "this project requires a second factor: the session has ended; sign in again",
    );
  }
  if ("reused" in outcome)
    throw new DomainError("REFRESH_TOKEN_REUSED", "the refresh token was already used; the session is revoked");
  if ("invalid" in outcome) throw invalidToken();
  return outcome.pair;
}

type RefreshDeps = Pick<FlowDeps, "config" | "db" | "clock" | "secrets" | "verification" | "hooks">;

/** One round of the transaction: the token locked, its session checked, then reused or rotated. */
async function refreshRound(
  deps: RefreshDeps,
  repos: Repositories,
  project: Project,
  tokenHash: string,
  client: ClientInfo,
): Promise<Outcome> {
  const record = await repos.refreshTokens.findForUpdate(project.id, tokenHash);
  // The clock is read after the lock: a use that waited behind a rotation is measured from it.
  const now = deps.clock.now();
  if (!record || record.revokedAt || record.expiresAt.getTime() <= now.getTime()) return { invalid: true };
  const live = await liveSession(repos, project, record.sessionId, now);
  if (!live) return { invalid: true };
  const { user, session } = live;
  const origin = userOrigin(user.id, client);
  const event = {
    organizationId: project.organizationId,
    projectId: project.id,
    userId: user.id,
    targetId: session.id,
  };

  if (project.mfaRequired && !provesTwoFactors(session.amr)) {
    await repos.sessions.revoke(project.id, session.userId, session.id, now);
    await repos.auditEvents.record({ type: "session.revoked", ...event, details: { reason: "mfa_required" }, origin });
    return { mfaRequired: true };
  }

  if (record.rotatedAt) {
    const sinceRotation = now.getTime() - record.rotatedAt.getTime();
    if (sinceRotation <= REFRESH_GRACE_MS && record.successorSealed) {
      return { pair: JSON.parse(deps.secrets.open(record.successorSealed, record.id).toString("utf8")) as TokenPair };
    }
    // Reuse: whoever holds the old token may be a thief; end the session for everyone.
    await repos.sessions.revoke(project.id, session.userId, session.id, now);
    if (record.successorSealed) await repos.refreshTokens.forgetSuccessor(project.id, record.id);
    await repos.auditEvents.record({ type: "token.reuse_detected", ...event, reason: "REFRESH_TOKEN_REUSED", origin });
    return { reused: true };
  }

  const pair = await issuePair(deps, repos, project, user, session);
  await repos.refreshTokens.markRotated(project.id, record.id, now, deps.secrets.seal(JSON.stringify(pair), record.id));
  await repos.refreshTokens.forgetSuccessorsRotatedBefore(
    project.id,
    session.id,
    new Date(now.getTime() - REFRESH_GRACE_MS),
  );
  await repos.sessions.touch(project.id, session.id, now);
  await repos.authEvents.record({
    organizationId: project.organizationId,
    projectId: project.id,
    userId: user.id,
    kind: "refresh",
    method: "refresh",
    at: now,
  });
  await repos.auditEvents.record({ type: "token.refreshed", ...event, origin });
  return { pair };
}

/**
 * The token's session if it may still be refreshed, with its end as the project's lifetimes
 * now put it: a lowered lifetime reaches the session here (committed, so the rotated token
 * cannot outlive the new end), and an idle or ended session, or a disabled or deleted user,
 * gives nothing.
 */
async function liveSession(repos: Repositories, project: Project, sessionId: string, now: Date) {
  const active = await repos.sessions.getActive(project.id, sessionId, now);
  if (!active) return null;
  const user = await repos.users.get(project.id, active.userId);
  if (!user || user.disabled) return null;
  const end = sessionEnd(project, active);
  if (end.getTime() < active.expiresAt.getTime()) await repos.sessions.shortenTo(project.id, active.id, end);
  if (end.getTime() <= now.getTime() || isIdle(project, active, now)) return null;
  return { user, session: { ...active, expiresAt: end } };
}
