import { hashToken, randomToken } from "../../../crypto/tokens.js";
import type { Member } from "../../../domain/account.js";
import { DomainError } from "../../../domain/errors.js";
import { MFA_CHALLENGE_TTL_SECONDS } from "../../../domain/mfa.js";
import { secondFactorsOf, type MemberSecondFactor } from "../../../domain/member-mfa.js";
import type { Repositories } from "../../../store/database.js";
import type { FlowDeps } from "../../deps.js";

/** What a member sign-in answers instead of a token: `{mfa_required, mfa_token, mfa_methods, expires_in}`. */
export interface MemberChallenge {
  mfaToken: string;
  /** `[]`: an enrollment challenge (the organization requires a factor the identity lacks). */
  methods: MemberSecondFactor[];
  expiresIn: number;
  organizationId: string;
}

/**
 * Holds a member's sign-in to one organization at its second factor (`verify`) or at enrollment
 * (`enroll`): an mfa_token of 256 random bits, stored as SHA-256, valid 300 s, bound to the
 * membership. The end users' challenge (flows/auth/mfa/challenge.ts), without SMS.
 */
export async function openMemberChallenge(
  deps: Pick<FlowDeps, "clock">,
  repos: Repositories,
  input: { identityId: string; member: Member; purpose: "verify" | "enroll"; methods: MemberSecondFactor[] },
): Promise<MemberChallenge> {
  const token = randomToken("gmmfa");
  const now = deps.clock.now();
  await repos.memberMfaChallenges.create(
    hashToken(token),
    {
      identityId: input.identityId,
      organizationId: input.member.organizationId,
      memberId: input.member.id,
      purpose: input.purpose,
      attempts: 0,
      expiresAt: new Date(now.getTime() + MFA_CHALLENGE_TTL_SECONDS * 1000),
    },
    now,
  );
  return {
    mfaToken: token,
    methods: input.purpose === "enroll" ? [] : input.methods,
    expiresIn: MFA_CHALLENGE_TTL_SECONDS,
    organizationId: input.member.organizationId,
  };
}

/**
 * After the password (Login) or the invitation link and password (AcceptInvitation): a
 * challenge when the identity has a second factor, or when the organization requires one and it
 * has none (enroll first); else nothing more is asked and the caller issues the token.
 */
export async function secondStep(
  deps: Pick<FlowDeps, "clock">,
  repos: Repositories,
  identityId: string,
  member: Member,
): Promise<MemberChallenge | undefined> {
  const methods = secondFactorsOf(await repos.memberMfaFactors.summary(identityId));
  if (methods.length > 0) return openMemberChallenge(deps, repos, { identityId, member, purpose: "verify", methods });
  const organization = await repos.organizations.get(member.organizationId);
  // Fail closed: an organization that cannot be read asks for enrollment rather than nothing.
  if (!organization || organization.requireMemberMfa)
    return openMemberChallenge(deps, repos, { identityId, member, purpose: "enroll", methods: [] });
  return undefined;
}

export function invalidMemberMfaToken(): DomainError {
  return new DomainError("INVALID_MFA_TOKEN", "the mfa_token is invalid, used or expired: sign in again");
}
