import { hashToken } from "../../crypto/tokens.js";
import { DomainError } from "../../domain/errors.js";
import type { MemberIdentity } from "../../domain/member-identity.js";
import { requireAcceptablePassword } from "../../domain/password-policy.js";
import type { Repositories } from "../../store/database.js";
import { UniqueViolation } from "../../store/errors.js";
import type { AuditOrigin } from "../../domain/audit.js";
import { normalizeEmail } from "../../domain/account.js";
import { ACCOUNT_SCOPE, checking } from "../../limits/limits.js";
import type { FlowDeps } from "../deps.js";
import { issueManagementToken, type IssuedManagementToken } from "../management-token.js";
import { secondStep, type MemberChallenge } from "./mfa/challenge.js";

export interface AcceptInvitationInput {
  token: string;
  password: string;
}

/** Signed in (`token`), or the sign-in waits for a second factor (`challenge`). */
export type AcceptedInvitation = (
  { token: IssuedManagementToken; challenge?: undefined } | { token?: undefined; challenge: MemberChallenge }
) & {
  organizationId: string;
  /** The member's email: the invited address, which the invitation link just proved. */
  email: string;
};

const invalidInvitation = () =>
  new DomainError("INVALID_INVITATION", "the invitation is invalid, expired or already used");
const wrongPassword = () =>
  new DomainError("INVALID_CREDENTIALS", "this email already has a Gatehouse password; enter it to accept");

// Threat: one invitation link turned into two members, or reused after it was spent. The
// invitation is burned by one conditional UPDATE inside the transaction that creates the
// member and its token: of two racing accepts exactly one sees the row, and a failure
// afterwards (the email became a member meanwhile) rolls the burn back with everything else.
//
// Threat: an invitation used to take over an existing identity (a person already member of
// another organization). The link proves control of the address, not of the identity: the
// identity's current password must verify, and it stays as it is. A refused password (wrong,
// or too common for a new identity) does not spend the invitation.
export async function acceptInvitation(
  deps: Pick<FlowDeps, "db" | "clock" | "passwords" | "limits">,
  input: AcceptInvitationInput,
  origin: AuditOrigin,
): Promise<AcceptedInvitation> {
  try {
    return await acceptOnce(deps, input, origin);
  } catch (error) {
    // A racing accept for the same new email (another organization's invitation) created the
    // identity between our check and our insert: once more, this time as an existing identity.
    if (error instanceof UniqueViolation && error.constraint === "member_identities_email_normalized_key") {
      return acceptOnce(deps, input, origin);
    }
    throw error;
  }
}

async function acceptOnce(
  deps: Pick<FlowDeps, "db" | "clock" | "passwords" | "limits">,
  input: AcceptInvitationInput,
  origin: AuditOrigin,
): Promise<AcceptedInvitation> {
  const tokenHash = hashToken(input.token);
  // Read first, spent later: the slow password work happens before a transaction holds a
  // connection, and a refused password leaves the invitation usable.
  const pending = await deps.db.repos.invitations.findPending(tokenHash, deps.clock.now());
  if (!pending) throw invalidInvitation();
  const existing = await deps.db.repos.memberIdentities.findCredentialsByEmail(pending.email);
  let newPasswordHash: string | undefined;
  if (existing) {
    // The identity's password, guessed through an invitation: counted with Login's guesses.
    const account = normalizeEmail(existing.identity.email);
    const limited = await deps.limits.beginSignIn(ACCOUNT_SCOPE, account, origin.ip);
    const verdict = await checking(limited, () => deps.passwords.verify(existing.passwordHash, input.password));
    if (verdict.ok) await limited.succeeded();
    else await limited.failed();
    if (!verdict.ok) {
      // The invitation speaks first: a racing accept that spent it (and so made the identity)
      // is INVALID_INVITATION for the others, not a password they never set.
      if (!(await deps.db.repos.invitations.findPending(tokenHash, deps.clock.now()))) throw invalidInvitation();
      throw wrongPassword();
    }
  } else {
    requireAcceptablePassword(input.password);
    newPasswordHash = await deps.passwords.hash(input.password);
  }
  try {
    return await deps.db.transaction(async (repos) => {
      const now = deps.clock.now();
      const invitation = await repos.invitations.consume(tokenHash, now);
      if (!invitation) throw invalidInvitation();
      const identity = existing
        ? await provenIdentity(repos, existing.identity, existing.passwordHash)
        : // Hashed above whenever there is no existing identity.
          // eslint-disable-next-line @typescript-eslint/no-non-null-assertion
          await repos.memberIdentities.create({ email: invitation.email, passwordHash: newPasswordHash! });
      const member = await repos.members.create(invitation.organizationId, { identity, role: invitation.role });
      // The membership stands either way; the sign-in that comes with it may wait for a second
      // factor, as Login's does (members/mfa/challenge.ts).
      const challenge = await secondStep(deps, repos, identity.id, member);
      const signIn = challenge ? { challenge } : { token: await issueManagementToken(repos, member, now) };
      await repos.auditEvents.record({
        type: "member.joined",
        organizationId: member.organizationId,
        projectId: null,
        targetId: member.id,
        details: { role: member.role },
        origin: { ...origin, actor: { type: "member", id: member.id } },
      });
      return { ...signIn, organizationId: member.organizationId, email: member.email };
    });
  } catch (error) {
    if (error instanceof UniqueViolation && error.constraint === "members_organization_identity_key") {
      throw new DomainError("MEMBER_EXISTS", "this email is already a member of this organization");
    }
    throw error;
  }
}

/** The identity, still with the password that was verified (not changed since, by a reset or a change). */
async function provenIdentity(
  repos: Repositories,
  identity: MemberIdentity,
  verifiedHash: string,
): Promise<MemberIdentity> {
  if ((await repos.memberIdentities.lockPasswordHash(identity.id)) !== verifiedHash) throw wrongPassword();
  return identity;
}
