import type { Project } from "../../domain/account.js";
import { DomainError } from "../../domain/errors.js";
import { requireAcceptablePassword } from "../../domain/password-policy.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";
import type { SessionOwner } from "./sessions.js";

export const PASSWORD_CHANGED = "Your password has been changed. Your other sessions have been signed out.";

/**
 * The signed-in user proves the current password (a user without one gets the same
 * INVALID_CREDENTIALS, after the same argon2 work), then the new one is stored and every other
 * session of the user ends; the session making the request stays valid.
 */
export async function changePassword(
  deps: Pick<FlowDeps, "db" | "clock" | "passwords">,
  project: Project,
  owner: SessionOwner,
  input: { currentPassword: string; newPassword: string },
  origin: AuditOrigin,
): Promise<{ message: string }> {
  requireAcceptablePassword(input.newPassword);
  const currentHash = await deps.db.repos.users.passwordHash(project.id, owner.userId);
  const verdict = await deps.passwords.verify(currentHash, input.currentPassword);
  if (!verdict.ok) throw new DomainError("INVALID_CREDENTIALS", "the current password is incorrect");
  const passwordHash = await deps.passwords.hash(input.newPassword);
  await deps.db.transaction(async (repos) => {
    await repos.users.update(project.id, owner.userId, { passwordHash });
    await repos.sessions.revokeAll(project.id, owner.userId, deps.clock.now(), owner.sessionId);
    await repos.auditEvents.record({
      type: "user.password.changed",
      organizationId: project.organizationId,
      projectId: project.id,
      userId: owner.userId,
      origin,
    });
  });
  return { message: PASSWORD_CHANGED };
}
