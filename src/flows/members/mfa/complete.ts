import type { AuditOrigin } from "../../../domain/audit.js";
import type { MemberMfaChallenge, MemberProof } from "../../../domain/member-mfa.js";
import type { Repositories } from "../../../store/database.js";
import type { FlowDeps } from "../../deps.js";
import { issueManagementToken, type IssuedManagementToken } from "../../management-token.js";
import { invalidMemberMfaToken } from "./challenge.js";

/** A finished member sign-in: the management token and its organization. */
export interface MemberSignedIn {
  token: IssuedManagementToken;
  organizationId: string;
}

/**
 * Ends a member sign-in whose challenge was answered, in the transaction that spent the
 * challenge: a management token marked as issued after a second factor, and
 * `member.login.succeeded` with what answered.
 */
export async function completeMemberSignIn(
  deps: Pick<FlowDeps, "clock">,
  repos: Repositories,
  tokenHash: string,
  challenge: MemberMfaChallenge,
  proof: MemberProof,
  origin: AuditOrigin,
): Promise<MemberSignedIn> {
  const now = deps.clock.now();
  await repos.memberMfaChallenges.consume(tokenHash, now);
  // The membership still stands (a removal deletes the challenge with it; read again all the same).
  const member = await repos.members.get(challenge.organizationId, challenge.memberId);
  if (!member) throw invalidMemberMfaToken();
  const token = await issueManagementToken(repos, member, now, { secondFactor: true });
  await repos.auditEvents.record({
    type: "member.login.succeeded",
    organizationId: member.organizationId,
    projectId: null,
    targetId: member.id,
    details: { second_factor: proof },
    origin: { ...origin, actor: { type: "member", id: member.id } },
  });
  return { token, organizationId: member.organizationId };
}
