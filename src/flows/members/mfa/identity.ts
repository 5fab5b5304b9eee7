import { hashToken } from "../../../crypto/tokens.js";
import { DomainError } from "../../../domain/errors.js";
import type { MemberIdentity } from "../../../domain/member-identity.js";
import type { MemberMfaChallenge } from "../../../domain/member-mfa.js";
import type { MemberPrincipal } from "../../../domain/principals.js";
import type { Repositories } from "../../../store/database.js";
import type { FlowDeps } from "../../deps.js";
import { invalidMemberMfaToken } from "./challenge.js";

/** Who asks: the management token's member, or the holder of a member challenge's mfa_token. */
export interface MemberCaller {
  /** The mfa_token of a challenge; "" when the management token names the member. */
  mfaToken: string;
  /** The management token's member, when the request carried one. */
  principal?: MemberPrincipal;
}

/** The identity behind the signed-in member's management token. */
export async function identityOfPrincipal(repos: Repositories, principal: MemberPrincipal): Promise<MemberIdentity> {
  const found = await repos.memberIdentities.credentialsOfMember(principal.organizationId, principal.member.id);
  // The token was valid a moment ago: its membership went since (a removal).
  if (!found)
    throw new DomainError("INVALID_MANAGEMENT_TOKEN", "the management token is invalid or expired; sign in again");
  return found.identity;
}

/**
 * The identity an enrollment is for: an enrollment challenge's (the mfa_token wins when both are
 * sent, as for end users), else the management token's. A challenge to verify enrolls nothing:
 * it proves a password, not a factor.
 */
export async function enrollingIdentity(
  deps: Pick<FlowDeps, "clock">,
  repos: Repositories,
  caller: MemberCaller,
): Promise<{ identity: MemberIdentity; challenge?: MemberMfaChallenge }> {
  if (caller.mfaToken !== "") {
    const challenge = await repos.memberMfaChallenges.findLive(hashToken(caller.mfaToken.trim()), deps.clock.now());
    if (!challenge || challenge.purpose !== "enroll") throw invalidMemberMfaToken();
    const found = await repos.memberIdentities.credentialsOfMember(challenge.organizationId, challenge.memberId);
    if (!found) throw invalidMemberMfaToken();
    return { identity: found.identity, challenge };
  }
  if (!caller.principal) throw missingCredential();
  return { identity: await identityOfPrincipal(repos, caller.principal) };
}

export function missingCredential(): DomainError {
  return new DomainError(
    "MISSING_MANAGEMENT_TOKEN",
    "send the management token in Authorization: Bearer, or the mfa_token of the sign-in challenge",
  );
}
