import { hashToken, randomToken } from "../../crypto/tokens.js";
import { normalizeEmail, type MemberRole } from "../../domain/account.js";
import { DomainError } from "../../domain/errors.js";
import { invitationMail } from "../../notify/templates.js";
import type { AuditOrigin } from "../../domain/audit.js";
import { admitSend, organizationSendTarget } from "../send-gate.js";
import type { FlowDeps } from "../deps.js";

/** Invitation links work for 7 days (API.md section 4). */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A member (InviteMember), or an operator on the server's machine (the CLI): no id, no email. */
export interface Inviter {
  organizationId: string;
  id: string | null;
  email: string | null;
}

export interface InviteMemberInput {
  inviter: Inviter;
  email: string;
  role: MemberRole;
}

// The invitation and its email commit together: the mail goes through the outbox, so an
// SMTP outage delays the email but never loses it nor fails the request.
export async function inviteMember(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "logger" | "mail" | "limits" | "detached">,
  input: InviteMemberInput,
  origin: AuditOrigin,
): Promise<{ message: string }> {
  const { inviter } = input;
  // Per address, per inviter's client address and per organization, like every other send.
  const target = organizationSendTarget(inviter.organizationId);
  const request = {
    kind: "invitation",
    channel: "email",
    destination: normalizeEmail(input.email),
    known: true,
    overDestination: "reject",
    overBudget: "reject",
    ip: origin.ip,
  } as const;
  await admitSend(deps, target, request);
  const token = randomToken("ginv");
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  await deps.db.transaction(async (repos) => {
    // Only this organization's members count: whether the address belongs to someone in
    // another organization is none of the inviter's business, and that person may join here.
    if (await repos.members.findByEmail(inviter.organizationId, input.email)) {
      throw new DomainError("MEMBER_EXISTS", "this email is already a member of this organization");
    }
    await repos.invitations.replacePending(inviter.organizationId, {
      email: input.email,
      role: input.role,
      tokenHash: hashToken(token),
      invitedBy: inviter.id,
      expiresAt,
    });
    await repos.auditEvents.record({
      type: "member.invited",
      organizationId: inviter.organizationId,
      projectId: null,
      details: { role: input.role },
      origin,
    });
    const organization = await repos.organizations.get(inviter.organizationId);
    // A person who already signs in to Gatehouse is invited at the address it has, never at
    // the spelling typed (another case).
    const identity = await repos.memberIdentities.findByEmail(input.email);
    const content = invitationMail({
      organizationName: organization?.name ?? "your organization",
      inviterEmail: inviter.email ?? undefined,
      role: input.role,
      link: invitationLink(deps.config.publicUrl, token),
      expiresAt,
      // Told only to the address's owner: accepting then asks for the password it already has.
      hasPassword: identity !== null,
    });
    await deps.mail.queue(repos, { to: identity?.email ?? input.email, ...content });
  });
  return { message: "Invitation sent" };
}

/** API.md section 5: `{PUBLIC_URL}?token=…&type=invitation`. */
export function invitationLink(publicUrl: string, token: string): string {
  return `${publicUrl}?token=${encodeURIComponent(token)}&type=invitation`;
}
