import type { AuditEventType, AuditOrigin } from "../../../domain/audit.js";
import { DomainError, type Reason } from "../../../domain/errors.js";
import type { MemberMfaChallenge } from "../../../domain/member-mfa.js";
import type { Repositories } from "../../../store/database.js";
import { firstRefusal, rateLimitDetails, refusalKey, throttleKey } from "../../audit/rate-limit.js";
import { recordAlone } from "../../audit/record.js";
import type { FlowDeps } from "../../deps.js";

// A member's second factor belongs to its identity, which has no log of its own: its changes go
// to the log of each organization the identity belongs to, as its member there, as a member's
// failed sign-in does (audit/member-sign-in.ts).

/** An event of the identity, in each of its organizations, in the caller's transaction. */
export async function recordForIdentity(
  repos: Repositories,
  identityId: string,
  type: AuditEventType,
  origin: AuditOrigin,
  extra: { details?: Record<string, string | string[] | boolean | number>; targetId?: string } = {},
): Promise<void> {
  for (const { member } of await repos.members.listForIdentity(identityId)) {
    await repos.auditEvents.record({
      type,
      organizationId: member.organizationId,
      projectId: null,
      targetId: extra.targetId ?? member.id,
      details: extra.details,
      origin: { ...origin, actor: { type: "member", id: member.id } },
    });
  }
}

// The answers to a challenge that say something about the attempt (as audit/sign-in.ts).
const FAILURES = new Set<Reason>([
  "INVALID_CODE",
  "INVALID_MFA_TOKEN",
  "PASSKEY_NOT_FOUND",
  "PASSKEY_VERIFICATION_FAILED",
]);

/**
 * Runs the answer to a member challenge and records its failure in the organization the
 * sign-in is for: `member.login.failed` with the reason the caller got, or `rate_limit.exceeded`
 * once per limited key and wait. A token that names no live challenge names no organization,
 * and nothing is recorded. Its own write, after the answer was decided.
 */
export async function auditedAnswer<T>(
  deps: Pick<FlowDeps, "db" | "logger" | "codes" | "limits">,
  challenge: MemberMfaChallenge | null,
  origin: AuditOrigin,
  method: "mfa" | "passkey",
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (challenge && error instanceof DomainError && (FAILURES.has(error.reason) || error.reason === "RATE_LIMITED")) {
      const limited = error.reason === "RATE_LIMITED";
      const fallback = () => refusalKey(deps, "member mfa", challenge.identityId);
      if (!limited || (await firstRefusal(deps, throttleKey(error, fallback), error)))
        await recordAlone(deps, {
          type: limited ? "rate_limit.exceeded" : "member.login.failed",
          organizationId: challenge.organizationId,
          projectId: null,
          targetId: challenge.memberId,
          reason: error.reason,
          details: { method, ...(limited ? rateLimitDetails(error) : {}) },
          origin: { ...origin, actor: { type: "member", id: challenge.memberId } },
        });
    }
    throw error;
  }
}

/**
 * The identity's wrong second factors first reached the account limit (mfa_failures_per_account,
 * the Account interface's defaults): whoever answers knows the password. Recorded in each of the
 * identity's organizations, after the answer.
 */
export async function recordFailuresExceeded(
  deps: Pick<FlowDeps, "db">,
  identityId: string,
  origin: AuditOrigin,
  failures: number,
): Promise<void> {
  await deps.db.transaction((repos) =>
    recordForIdentity(repos, identityId, "member.mfa.failures_exceeded", origin, { details: { failures } }),
  );
}
