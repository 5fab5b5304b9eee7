import { hashToken } from "../../crypto/tokens.js";
import { DomainError } from "../../domain/errors.js";
import { isCommonPassword } from "../../domain/password-policy.js";
import { UniqueViolation } from "../../store/errors.js";
import type { FlowDeps } from "../deps.js";
import { issueManagementToken, type IssuedManagementToken } from "../management-token.js";

export interface AcceptInvitationInput {
  token: string;
  password: string;
}

// Threat: one invitation link turned into two members, or reused after it was spent. The
// invitation is burned by one conditional UPDATE inside the transaction that creates the
// member and its token: of two racing accepts exactly one sees the row, and a failure
// afterwards (the email became a member meanwhile) rolls the burn back with everything else.
export async function acceptInvitation(deps: FlowDeps, input: AcceptInvitationInput): Promise<IssuedManagementToken> {
  if (isCommonPassword(input.password)) {
    throw new DomainError("WEAK_PASSWORD", "this password is too common; choose another");
  }
  // Hashed before the transaction opens: argon2 is slow, and a transaction holds a connection.
  const passwordHash = await deps.passwords.hash(input.password);
  try {
    return await deps.db.transaction(async (repos) => {
      const now = deps.clock.now();
      const invitation = await repos.invitations.consume(hashToken(input.token), now);
      if (!invitation) {
        throw new DomainError("INVALID_INVITATION", "the invitation is invalid, expired or already used");
      }
      const member = await repos.members.create({
        organizationId: invitation.organizationId,
        email: invitation.email,
        role: invitation.role,
        passwordHash,
      });
      return issueManagementToken(repos, member, now);
    });
  } catch (error) {
    if (error instanceof UniqueViolation && error.constraint === "members_email_normalized_key") {
      throw new DomainError("MEMBER_EXISTS", "a member with this email already exists");
    }
    throw error;
  }
}
