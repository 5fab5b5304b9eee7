import { hashToken } from "../../crypto/tokens.js";
import type { FlowDeps } from "../deps.js";

/** What the invitation page tells the invitee before it accepts: who asks it to join what. */
export interface InvitationShown {
  organizationName: string;
  /** The inviting member's email; "" when an operator invited from the CLI or the member has left. */
  inviterEmail: string;
}

/** The longest token AcceptInvitation takes (account.proto); a longer one is no invitation. */
const MAX_TOKEN_LENGTH = 4096;

/**
 * The organization and inviter of a pending invitation (not used, replaced or expired), as
 * the invitation mail named them; null for any other token, whatever it is, so the answer says
 * no more than AcceptInvitation's INVALID_INVITATION would. The link is the credential: its
 * holder read these names in the mail already, and an invitation token (256 random bits) cannot
 * be guessed, so nothing here can be enumerated. Reads only; the invitation stays pending.
 */
export async function pendingInvitation(
  deps: Pick<FlowDeps, "db" | "clock">,
  token: string,
): Promise<InvitationShown | null> {
  if (token === "" || token.length > MAX_TOKEN_LENGTH) return null;
  const { repos } = deps.db;
  const invitation = await repos.invitations.findPending(hashToken(token), deps.clock.now());
  if (!invitation) return null;
  const [organization, inviter] = await Promise.all([
    repos.organizations.get(invitation.organizationId),
    invitation.invitedBy ? repos.members.get(invitation.organizationId, invitation.invitedBy) : null,
  ]);
  if (!organization) return null;
  return { organizationName: organization.name, inviterEmail: inviter?.email ?? "" };
}
