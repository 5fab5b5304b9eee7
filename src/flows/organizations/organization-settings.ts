import type { Organization } from "../../domain/account.js";
import type { AuditOrigin } from "../../domain/audit.js";
import { DomainError } from "../../domain/errors.js";
import { secondFactorsOf } from "../../domain/member-mfa.js";
import type { MemberPrincipal } from "../../domain/principals.js";
import type { FlowDeps } from "../deps.js";
import { identityOfPrincipal } from "../members/mfa/identity.js";

/** GetOrganization: the caller's organization; its token names it, so it always exists. */
export async function getOrganization(deps: Pick<FlowDeps, "db">, principal: MemberPrincipal): Promise<Organization> {
  const organization = await deps.db.repos.organizations.get(principal.organizationId);
  if (!organization) throw new Error("the management token's organization is gone");
  return organization;
}

export interface OrganizationChanges {
  requireMemberMfa?: boolean;
}

/**
 * UpdateOrganization (admin). Turning require_member_mfa on asks the caller for a second factor
 * of its own first (an admin must not lock the organization into a rule it cannot meet), then
 * revokes every management token of the organization issued without a second factor, the
 * caller's excepted: from then on a token of the organization proves two factors. Members
 * without a factor are asked to enroll one at their next sign-in (members/mfa/challenge.ts).
 */
export async function updateOrganization(
  deps: Pick<FlowDeps, "db">,
  principal: MemberPrincipal,
  changes: OrganizationChanges,
  origin: AuditOrigin,
): Promise<{ organization: Organization; revokedTokens: number }> {
  return deps.db.transaction(async (repos) => {
    const current = await repos.organizations.get(principal.organizationId);
    if (!current) throw new Error("the management token's organization is gone");
    if (changes.requireMemberMfa === undefined || changes.requireMemberMfa === current.requireMemberMfa)
      return { organization: current, revokedTokens: 0 };
    let revokedTokens = 0;
    if (changes.requireMemberMfa) {
      const identity = await identityOfPrincipal(repos, principal);
      if (secondFactorsOf(await repos.memberMfaFactors.summary(identity.id)).length === 0)
        throw new DomainError(
          "MFA_NOT_ENROLLED",
          "enroll a second factor of your own (an authenticator app or a passkey) before requiring one of every member",
        );
      revokedTokens = await repos.managementTokens.revokeWithoutSecondFactor(
        principal.organizationId,
        principal.tokenId,
      );
    }
    const organization = await repos.organizations.setRequireMemberMfa(
      principal.organizationId,
      changes.requireMemberMfa,
    );
    await repos.auditEvents.record({
      type: "organization.updated",
      organizationId: principal.organizationId,
      projectId: null,
      targetId: principal.organizationId,
      details: {
        fields: ["require_member_mfa"],
        require_member_mfa: changes.requireMemberMfa,
        revoked_tokens: revokedTokens,
      },
      origin,
    });
    if (!organization) throw new Error("the management token's organization is gone");
    return { organization, revokedTokens };
  });
}
