import type { Project } from "../../../domain/account.js";
import { DomainError } from "../../../domain/errors.js";
import type { MfaMethod } from "../../../domain/mfa.js";
import type { AuditOrigin } from "../../../domain/audit.js";
import type { FlowDeps } from "../../deps.js";

/**
 * UnenrollMfa: removes a confirmed method. The last one takes the recovery codes with it, and
 * in a project with mfa_required the last one cannot go (MFA_REQUIRED_BY_PROJECT).
 */
export async function unenrollMfa(
  deps: Pick<FlowDeps, "db" | "clock">,
  project: Project,
  userId: string,
  method: MfaMethod,
  origin: AuditOrigin,
): Promise<{ unenrolled: true }> {
  return deps.db.transaction(async (repos) => {
    const user = await repos.users.get(project.id, userId);
    if (!user || !user.mfaMethods.includes(method))
      throw new DomainError("MFA_NOT_ENROLLED", `${method} is not enrolled`);
    const last = user.mfaMethods.length === 1;
    if (last && project.mfaRequired) {
      throw new DomainError(
        "MFA_REQUIRED_BY_PROJECT",
        "this project requires MFA: enroll another method before removing the last one",
      );
    }
    await repos.mfaFactors.removeConfirmed(project.id, userId, method, deps.clock.now());
    if (last) await repos.recoveryCodes.removeAll(project.id, userId);
    await repos.auditEvents.record({
      type: "user.mfa.unenrolled",
      organizationId: project.organizationId,
      projectId: project.id,
      userId,
      details: { method },
      origin,
    });
    return { unenrolled: true as const };
  });
}
