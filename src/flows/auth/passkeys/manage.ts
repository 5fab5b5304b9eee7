import type { Project } from "../../../domain/account.js";
import type { AuditOrigin } from "../../../domain/audit.js";
import { DomainError, validationFailed } from "../../../domain/errors.js";
import { isIdOf } from "../../../domain/ids.js";
import type { Passkey } from "../../../domain/passkeys.js";
import type { FlowDeps } from "../../deps.js";
import { requireSelfOrAdmin, type UserActor } from "../users/actor.js";
import { isUserId, userNotFound } from "../users/get-user.js";
import { passkeyNotFound } from "./ceremony.js";

/** ListPasskeys: the actor's own, or as admin the named user's (newest first). */
export async function listPasskeys(
  deps: Pick<FlowDeps, "db">,
  project: Project,
  actor: UserActor,
  userId: string,
): Promise<Passkey[]> {
  const id = actor.kind === "user" ? userId || actor.userId : userId;
  if (id === "") throw validationFailed([{ field: "user_id", description: "is required as admin" }]);
  requireSelfOrAdmin(actor, id, "passkeys can be listed");
  if (!isUserId(id) || !(await deps.db.repos.users.get(project.id, id))) throw userNotFound();
  return deps.db.repos.passkeys.listOfUser(project.id, id);
}

/** RenamePasskey: a user renames its own passkeys; an admin any of the project's. */
export async function renamePasskey(
  deps: Pick<FlowDeps, "db">,
  project: Project,
  actor: UserActor,
  input: { id: string; name: string },
): Promise<Passkey> {
  const name = input.name.trim();
  if (name === "") throw validationFailed([{ field: "name", description: "must not be blank" }]);
  const renamed = isIdOf("pk", input.id)
    ? await deps.db.repos.passkeys.rename(project.id, input.id, name, ownerFilter(actor))
    : null;
  if (!renamed) throw passkeyNotFound();
  return renamed;
}

/**
 * DeletePasskey: a user deletes its own passkeys; an admin any of the project's. The user's
 * last passkey takes `webauthn` out of its methods; if that was its last MFA method, the recovery
 * codes go too, and in a project with mfa_required it cannot go (as UnenrollMfa's last method).
 */
export async function deletePasskey(
  deps: Pick<FlowDeps, "db" | "clock">,
  project: Project,
  actor: UserActor,
  id: string,
  origin: AuditOrigin,
): Promise<{ deleted: true; id: string }> {
  if (!isIdOf("pk", id)) throw passkeyNotFound();
  return deps.db.transaction(async (repos) => {
    const passkey = await repos.passkeys.get(project.id, id, ownerFilter(actor));
    if (!passkey) throw passkeyNotFound();
    const user = await repos.users.get(project.id, passkey.userId);
    const others = (await repos.passkeys.listOfUser(project.id, passkey.userId)).length - 1;
    const lastMethod = others === 0 && user !== null && user.mfaMethods.every((m) => m === "webauthn");
    if (lastMethod && project.mfaRequired) {
      throw new DomainError(
        "MFA_REQUIRED_BY_PROJECT",
        "this project requires MFA: enroll another method before removing the last passkey",
      );
    }
    const now = deps.clock.now();
    await repos.passkeys.remove(project.id, passkey, now);
    if (lastMethod) await repos.recoveryCodes.removeAll(project.id, passkey.userId);
    const event = { organizationId: project.organizationId, projectId: project.id, userId: passkey.userId, origin };
    await repos.auditEvents.record({ ...event, type: "user.passkey.deleted", targetId: passkey.id });
    if (others === 0)
      await repos.auditEvents.record({ ...event, type: "user.mfa.unenrolled", details: { method: "webauthn" } });
    return { deleted: true as const, id: passkey.id };
  });
}

/** A user token acts on its own passkeys only: another user's is not found, never forbidden. */
function ownerFilter(actor: UserActor): string | undefined {
  return actor.kind === "user" ? actor.userId : undefined;
}
