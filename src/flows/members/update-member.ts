import type { Member, MemberRole } from "../../domain/account.js";
import type { AuditOrigin } from "../../domain/audit.js";
import { DomainError } from "../../domain/errors.js";
import type { FlowDeps } from "../deps.js";

export interface UpdateMemberInput {
  organizationId: string;
  memberId: string;
  role: MemberRole;
}

const notFound = () => new DomainError("MEMBER_NOT_FOUND", "no member with this id in this organization");

// Threats: an organization left without an admin (nobody could invite, remove or promote
// again), including through two admins demoting each other at once; a demoted member's
// tokens keep acting as an admin. Demoting an admin locks every admin row of the organization
// and counts them first, as RemoveMember does, so concurrent demotions (and removals) run in
// turn and the last admin standing is refused. Roles are read with the management token on
// every request, so the new role holds from the member's next call on every instance.
export async function updateMember(
  deps: Pick<FlowDeps, "db">,
  input: UpdateMemberInput,
  origin: AuditOrigin,
): Promise<Member> {
  return deps.db.transaction(async (repos) => {
    const member = await repos.members.get(input.organizationId, input.memberId);
    if (!member) throw notFound();
    if (member.role === input.role) return member;
    if (member.role === "admin" && (await repos.members.lockAdmins(input.organizationId)) <= 1) {
      throw new DomainError(
        "LAST_ADMIN",
        "the organization's only admin cannot become a developer; make another member an admin first",
      );
    }
    // Read again under the lock: a racing change may have won while we waited for it.
    const current = await repos.members.get(input.organizationId, input.memberId);
    if (!current) throw notFound();
    if (current.role === input.role) return current;
    await repos.members.setRole(input.organizationId, input.memberId, input.role);
    await repos.auditEvents.record({
      type: "member.role_changed",
      organizationId: input.organizationId,
      projectId: null,
      targetId: input.memberId,
      details: { role: input.role, previous_role: current.role },
      origin,
    });
    return { ...current, role: input.role };
  });
}
