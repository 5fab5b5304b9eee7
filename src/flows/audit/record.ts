import { normalizeEmail } from "../../domain/account.js";
import type { AuditEventInput } from "../../domain/audit.js";
import { isDatabaseUnavailable } from "../../store/errors.js";
import type { FlowDeps } from "../deps.js";

/**
 * An event with no business transaction to join (a failed sign-in, a rate limit that tripped):
 * its own small write. The caller's answer does not depend on it: a write that fails is logged
 * and the request answers as it would have, except when the database is down, which answers
 * SERVICE_UNAVAILABLE like any other request that needs it.
 */
export async function recordAlone(deps: Pick<FlowDeps, "db" | "logger">, event: AuditEventInput): Promise<void> {
  try {
    await deps.db.repos.auditEvents.record(event);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    deps.logger.error({ err: error, type: event.type }, "audit event not recorded");
  }
}

/**
 * What the log keeps of an email a sign-in named: an HMAC under GATEHOUSE_SECRET, bound to the
 * project. Repeated attempts on one address show as one value, and an address that is no
 * account's cannot be read back from the log (nor from a dump of it).
 */
export function auditEmailHash(deps: Pick<FlowDeps, "codes">, projectId: string, email: string): string {
  return deps.codes.hmac(`audit email ${projectId}`, normalizeEmail(email)).slice(0, 32);
}

/** What a deleted user's id becomes in the log: keyed, so the id cannot be recomputed from it without the secret. */
export function auditUserPseudonym(deps: Pick<FlowDeps, "codes">, userId: string): string {
  return `deleted_${deps.codes.hmac("audit user", userId).slice(0, 32)}`;
}
