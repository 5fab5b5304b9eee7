import type { AuditOrigin } from "../../domain/audit.js";
import { DomainError } from "../../domain/errors.js";
import type { FlowDeps } from "../deps.js";
import { firstRefusal, rateLimitDetails, refusalKey, throttleKey } from "./rate-limit.js";
import { recordAlone } from "./record.js";

// A member's sign-in (AccountLogin) names no organization: its failures go to the log of each
// organization the identity belongs to, as its member there, and only ever after the answer,
// so that a member's email and an unknown one are answered alike, in the same time.

/** A wrong password for a member identity: recorded in each of its organizations, as that member. */
export async function recordMemberLoginFailed(
  deps: Pick<FlowDeps, "db" | "logger">,
  identityId: string,
  origin: AuditOrigin,
): Promise<void> {
  for (const { member } of await deps.db.repos.members.listForIdentity(identityId)) {
    await recordAlone(deps, {
      type: "member.login.failed",
      organizationId: member.organizationId,
      projectId: null,
      targetId: member.id,
      reason: "INVALID_CREDENTIALS",
      origin: { ...origin, actor: { type: "member", id: member.id } },
    });
  }
}

/**
 * Rethrows what refused a sign-in before any lookup. For a rate limit, the first refusal of its
 * limited key and this email within the wait (counted for every refusal alike, member or not)
 * has the identity looked up after the answer, and `rate_limit.exceeded` recorded in each of
 * its organizations; an email that is no member's has no log to go to.
 */
export async function auditedRefusal(
  deps: Pick<FlowDeps, "db" | "logger" | "codes" | "limits" | "detached">,
  account: string,
  error: unknown,
  origin: AuditOrigin,
): Promise<never> {
  if (error instanceof DomainError && error.reason === "RATE_LIMITED") {
    // The email is part of the key: an address refused for many emails is recorded for each,
    // since each identity's organizations keep logs of their own.
    const key = `${throttleKey(error, () => refusalKey(deps, "account login", origin.ip))}:${refusalKey(deps, "account login", account)}`;
    if (await firstRefusal(deps, key, error))
      deps.detached.run("audit rate_limit.exceeded", () => recordMemberRateLimited(deps, account, error, origin));
  }
  throw error;
}

async function recordMemberRateLimited(
  deps: Pick<FlowDeps, "db" | "logger">,
  account: string,
  error: DomainError,
  origin: AuditOrigin,
): Promise<void> {
  const found = await deps.db.repos.memberIdentities.findCredentialsByEmail(account);
  if (!found) return;
  for (const { member } of await deps.db.repos.members.listForIdentity(found.identity.id)) {
    await recordAlone(deps, {
      type: "rate_limit.exceeded",
      organizationId: member.organizationId,
      projectId: null,
      targetId: member.id,
      reason: error.reason,
      details: { method: "password", ...rateLimitDetails(error) },
      origin: { ...origin, actor: { type: "member", id: member.id } },
    });
  }
}
