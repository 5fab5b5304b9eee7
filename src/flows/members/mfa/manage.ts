import type { AuditOrigin } from "../../../domain/audit.js";
import { DomainError } from "../../../domain/errors.js";
import { secondFactorsOf, type MemberMfaMethod, type MemberSecondFactor } from "../../../domain/member-mfa.js";
import type { MemberPrincipal } from "../../../domain/principals.js";
import type { Repositories } from "../../../store/database.js";
import type { FlowDeps } from "../../deps.js";
import { recordForIdentity } from "./audit.js";
import { issueMemberRecoveryCodes } from "./codes.js";
import { identityOfPrincipal } from "./identity.js";

// The signed-in member's own second factors: read them, remove TOTP, new recovery codes.

export interface MemberMfaStatus {
  mfaEnabled: boolean;
  methods: MemberSecondFactor[];
  recoveryCodesRemaining: number;
  requiredByOrganization: boolean;
}

export async function getMemberMfa(deps: Pick<FlowDeps, "db">, principal: MemberPrincipal): Promise<MemberMfaStatus> {
  const repos = deps.db.repos;
  const identity = await identityOfPrincipal(repos, principal);
  const methods = secondFactorsOf(await repos.memberMfaFactors.summary(identity.id));
  return {
    mfaEnabled: methods.length > 0,
    methods,
    recoveryCodesRemaining: await repos.memberRecoveryCodes.remaining(identity.id),
    requiredByOrganization: await repos.organizations.requiresMemberMfaOf(identity.id),
  };
}

/**
 * Before the identity loses a factor: locks the identity's row (its factors change one
 * transaction at a time, so two removals cannot both see another factor left), and refuses the
 * last one while an organization of the identity requires a second factor. Answers whether it is
 * the last (the recovery codes then go with it).
 */
export async function beforeRemovingFactor(repos: Repositories, identityId: string): Promise<{ last: boolean }> {
  await repos.memberIdentities.lockPasswordHash(identityId);
  const summary = await repos.memberMfaFactors.summary(identityId);
  // Each passkey is a factor of its own: the last passkey goes last only without TOTP.
  const last = (summary.totp ? 1 : 0) + summary.passkeys <= 1;
  if (last && (await repos.organizations.requiresMemberMfaOf(identityId)))
    throw new DomainError(
      "MFA_REQUIRED_BY_ORGANIZATION",
      "an organization you belong to requires a second factor: add another passkey or an authenticator app before removing this one",
    );
  return { last };
}

/** UnenrollMemberMfa: removes the identity's TOTP factor. */
export async function unenrollMemberMfa(
  deps: Pick<FlowDeps, "db">,
  principal: MemberPrincipal,
  method: MemberMfaMethod,
  origin: AuditOrigin,
): Promise<{ unenrolled: true }> {
  return deps.db.transaction(async (repos) => {
    const identity = await identityOfPrincipal(repos, principal);
    const summary = await repos.memberMfaFactors.summary(identity.id);
    if (!summary.totp) throw new DomainError("MFA_NOT_ENROLLED", `${method} is not enrolled`);
    const { last } = await beforeRemovingFactor(repos, identity.id);
    if (!(await repos.memberMfaFactors.removeConfirmed(identity.id, method)))
      throw new DomainError("MFA_NOT_ENROLLED", `${method} is not enrolled`);
    if (last) await repos.memberRecoveryCodes.removeAll(identity.id);
    await recordForIdentity(repos, identity.id, "member.mfa.unenrolled", origin, { details: { method } });
    return { unenrolled: true as const };
  });
}

/** RegenerateMemberRecoveryCodes: ten new codes; the old ones stop working. */
export async function regenerateMemberRecoveryCodes(
  deps: Pick<FlowDeps, "db" | "clock" | "codes">,
  principal: MemberPrincipal,
  origin: AuditOrigin,
): Promise<{ recoveryCodes: string[] }> {
  return deps.db.transaction(async (repos) => {
    const identity = await identityOfPrincipal(repos, principal);
    if (secondFactorsOf(await repos.memberMfaFactors.summary(identity.id)).length === 0)
      throw new DomainError("MFA_NOT_ENROLLED", "recovery codes need a second factor: enroll one first");
    const recoveryCodes = await issueMemberRecoveryCodes(deps, repos, identity.id);
    await recordForIdentity(repos, identity.id, "member.mfa.recovery_codes_regenerated", origin);
    return { recoveryCodes };
  });
}
