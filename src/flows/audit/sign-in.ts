import type { Project } from "../../domain/account.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { ClientInfo } from "../../domain/auth.js";
import { DomainError, type Reason } from "../../domain/errors.js";
import type { AuthEventKind, AuthMethod } from "../../domain/usage.js";
import { auditRow } from "../../store/repositories/audit-events.js";
import { countSignIn, isChallenge } from "../../metrics/sign-ins.js";
import type { FlowDeps } from "../deps.js";
import { firstRefusal, rateLimitDetails, refusalKey, throttleKey } from "./rate-limit.js";
import { auditEmailHash, recordAlone } from "./record.js";

/** The row a sign-in writes beside its session; named by the repository, whose table it is. */
type AuditRow = ReturnType<typeof auditRow>;

/** The user is the actor of its own sign-in, from the client that asked for it. */
export function userOrigin(userId: string, client: ClientInfo): AuditOrigin {
  return { actor: { type: "user", id: userId }, ip: client.ipAddress, userAgent: client.userAgent };
}

/** The audit row of a sign-in or signup that succeeded, written with its session (sign-ins.ts). */
export function signInAudit(
  project: Project,
  userId: string,
  context: { kind: AuthEventKind; method: AuthMethod; client: ClientInfo; amr?: string[] },
  at: Date,
): AuditRow {
  countSignIn(context.method, context.kind === "signup" ? "signed_up" : "succeeded");
  return auditRow(
    {
      type: context.kind === "signup" ? "user.signup" : "user.login.succeeded",
      organizationId: project.organizationId,
      projectId: project.id,
      userId,
      // amr: what the session's tokens say was proven (webhooks' user.signed_in carries it).
      details: context.amr ? { method: context.method, amr: context.amr } : { method: context.method },
      origin: userOrigin(userId, context.client),
    },
    at,
  );
}

/**
 * The `session.revoked` row of the sessions a sign-in ends to keep the user within the
 * project's max_sessions_per_user; the sign-in statement adds which and how many (sign-ins.ts).
 * The user's own sign-in ended them, so the user is the actor.
 */
export function sessionCapAudit(project: Project, userId: string, client: ClientInfo, at: Date): AuditRow {
  return auditRow(
    {
      type: "session.revoked",
      organizationId: project.organizationId,
      projectId: project.id,
      userId,
      details: { reason: "session_cap", max_sessions_per_user: project.maxSessionsPerUser },
      origin: userOrigin(userId, client),
    },
    at,
  );
}

/** What a sign-in attempt has learnt so far, filled in by the method as it goes. */
export interface SignInAttempt {
  method: AuthMethod;
  /** The email the request named, if any: only its keyed hash is kept. */
  email?: string;
  /** Set once the attempt names an existing user (a wrong password for a real account). */
  userId?: string;
  /** What the failure told the client beyond its reason (SSO: the `error` of its redirect). */
  details?: Record<string, string>;
}

// The answers a failed sign-in gets that say something about the attempt. Others (a malformed
// request, the database down) are not attempts on an account.
const SIGN_IN_FAILURES = new Set<Reason>([
  "INVALID_CREDENTIALS",
  "USER_DISABLED",
  "INVALID_CODE",
  "CODE_EXPIRED",
  "INVALID_LINK",
  "INVALID_MFA_TOKEN",
  "SSO_FAILED",
  "PASSKEY_NOT_FOUND",
  "PASSKEY_VERIFICATION_FAILED",
]);

/**
 * Runs a sign-in method and records its failure: `user.login.failed` with the reason the
 * caller got, or `rate_limit.exceeded` when a limit refused it before any credential was
 * checked (once per limited key and wait: rate-limit.ts; the rate-limit interceptor leaves
 * sign-ins to their flows). The failure has no transaction to join (nothing else is written), so the event is its own write, and the
 * caller gets the same answer whether or not it was stored.
 */
export async function auditedSignIn<T>(
  deps: Pick<FlowDeps, "db" | "logger" | "codes" | "limits">,
  project: Project,
  client: ClientInfo,
  attempt: SignInAttempt,
  run: () => Promise<T>,
): Promise<T> {
  try {
    const result = await run();
    if (isChallenge(result)) countSignIn(attempt.method, "mfa_required");
    return result;
  } catch (error) {
    if (error instanceof DomainError && (SIGN_IN_FAILURES.has(error.reason) || error.reason === "RATE_LIMITED")) {
      countSignIn(attempt.method, error.reason.toLowerCase());
      await recordSignInFailure(deps, project, client, attempt, error);
    }
    throw error;
  }
}

async function recordSignInFailure(
  deps: Pick<FlowDeps, "db" | "logger" | "codes" | "limits">,
  project: Project,
  client: ClientInfo,
  attempt: SignInAttempt,
  error: DomainError,
): Promise<void> {
  const limited = error.reason === "RATE_LIMITED";
  const emailHash = attempt.email ? auditEmailHash(deps, project.id, attempt.email) : null;
  const fallback = () => refusalKey(deps, project.id, attempt.method, emailHash ?? client.ipAddress);
  if (limited && !(await firstRefusal(deps, throttleKey(error, fallback), error))) return;
  await recordAlone(deps, {
    type: limited ? "rate_limit.exceeded" : "user.login.failed",
    organizationId: project.organizationId,
    projectId: project.id,
    userId: attempt.userId ?? null,
    reason: error.reason,
    emailHash,
    details: { ...attempt.details, method: attempt.method, ...(limited ? rateLimitDetails(error) : {}) },
    origin: attempt.userId
      ? userOrigin(attempt.userId, client)
      : { actor: { type: "anonymous", id: "" }, ip: client.ipAddress, userAgent: client.userAgent },
  });
}
