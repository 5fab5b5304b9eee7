import { normalizeRecoveryCode, recoveryCode } from "../../../crypto/one-time-codes.js";
import type { Project } from "../../../domain/account.js";
import { DomainError } from "../../../domain/errors.js";
import { RECOVERY_CODE_COUNT } from "../../../domain/mfa.js";
import type { Repositories } from "../../../store/database.js";
import type { AuditOrigin } from "../../../domain/audit.js";
import type { FlowDeps } from "../../deps.js";

export function recoveryCodeHmac(
  deps: Pick<FlowDeps, "codes">,
  projectId: string,
  userId: string,
  code: string,
): string {
  return deps.codes.hmac(`recovery:${projectId}:${userId}`, normalizeRecoveryCode(code));
}

/** Ten new single-use codes, replacing the user's earlier ones; shown once, stored as HMACs. */
export async function issueRecoveryCodes(
  deps: Pick<FlowDeps, "clock" | "codes">,
  repos: Repositories,
  project: Project,
  userId: string,
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  await repos.recoveryCodes.replace(
    project.id,
    userId,
    codes.map((code) => recoveryCodeHmac(deps, project.id, userId, code)),
    deps.clock.now(),
  );
  return codes;
}

/** RegenerateRecoveryCodes: a user with MFA gets ten new codes; the old ones stop working. */
export async function regenerateRecoveryCodes(
  deps: Pick<FlowDeps, "db" | "clock" | "codes">,
  project: Project,
  userId: string,
  origin: AuditOrigin,
): Promise<{ recoveryCodes: string[] }> {
  return deps.db.transaction(async (repos) => {
    const user = await repos.users.get(project.id, userId);
    if (!user || user.mfaMethods.length === 0)
      throw new DomainError("MFA_NOT_ENROLLED", "recovery codes need an enrolled MFA method");
    const recoveryCodes = await issueRecoveryCodes(deps, repos, project, userId);
    const event = {
      type: "user.mfa.recovery_codes_regenerated" as const,
      organizationId: project.organizationId,
      projectId: project.id,
      userId,
    };
    await repos.auditEvents.record({ ...event, origin });
    return { recoveryCodes };
  });
}
