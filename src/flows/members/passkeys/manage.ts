import type { AuditOrigin } from "../../../domain/audit.js";
import type { MemberPasskey } from "../../../domain/member-mfa.js";
import type { MemberPrincipal } from "../../../domain/principals.js";
import { passkeyNotFound } from "../../auth/passkeys/ceremony.js";
import type { FlowDeps } from "../../deps.js";
import { recordForIdentity } from "../mfa/audit.js";
import { identityOfPrincipal } from "../mfa/identity.js";
import { beforeRemovingFactor } from "../mfa/manage.js";

/** ListMemberPasskeys: the signed-in member's identity's passkeys, newest first. */
export async function listMemberPasskeys(
  deps: Pick<FlowDeps, "db">,
  principal: MemberPrincipal,
): Promise<MemberPasskey[]> {
  const identity = await identityOfPrincipal(deps.db.repos, principal);
  return deps.db.repos.memberPasskeys.listOfIdentity(identity.id);
}

/**
 * DeleteMemberPasskey: one of the caller's own passkeys (another identity's is not found). The
 * identity's last second factor cannot go while an organization requires one; with the last,
 * the recovery codes go too.
 */
export async function deleteMemberPasskey(
  deps: Pick<FlowDeps, "db">,
  principal: MemberPrincipal,
  id: string,
  origin: AuditOrigin,
): Promise<{ deleted: true; id: string }> {
  return deps.db.transaction(async (repos) => {
    const identity = await identityOfPrincipal(repos, principal);
    const passkeys = await repos.memberPasskeys.listOfIdentity(identity.id);
    if (!passkeys.some((p) => p.id === id)) throw passkeyNotFound();
    const { last } = await beforeRemovingFactor(repos, identity.id);
    if (!(await repos.memberPasskeys.remove(identity.id, id))) throw passkeyNotFound();
    if (last) await repos.memberRecoveryCodes.removeAll(identity.id);
    await recordForIdentity(repos, identity.id, "member.passkey.deleted", origin, { targetId: id });
    if (passkeys.length === 1)
      await recordForIdentity(repos, identity.id, "member.mfa.unenrolled", origin, { details: { method: "webauthn" } });
    return { deleted: true as const, id };
  });
}
