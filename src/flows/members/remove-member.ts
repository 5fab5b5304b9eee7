import { DomainError } from "../../domain/errors.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";

export interface RemoveMemberInput {
  organizationId: string;
  memberId: string;
}

const notFound = () => new DomainError("MEMBER_NOT_FOUND", "no member with this id in this organization");

// Threats: a member who left keeps a live management token; an organization loses its last
// admin (nobody could invite or remove again); two admins remove each other at once and both
// succeed. The membership is deleted with its tokens for this organization (cascade) in one
// transaction; removing an admin first locks every admin row of the organization and counts
// them, so concurrent removals run in turn and the last one standing is refused. The identity
// stays: its other organizations are untouched, and one left without any may be invited again
// with its password.
export async function removeMember(
  deps: Pick<FlowDeps, "db">,
  input: RemoveMemberInput,
  origin: AuditOrigin,
): Promise<{ removed: boolean; id: string }> {
  await deps.db.transaction(async (repos) => {
    const member = await repos.members.get(input.organizationId, input.memberId);
    if (!member) throw notFound();
    if (member.role === "admin" && (await repos.members.lockAdmins(input.organizationId)) <= 1) {
      throw new DomainError(
        "LAST_ADMIN",
        "the organization's only admin cannot be removed; invite another admin first",
      );
    }
    // A racing removal of the same member may have won while we waited for the lock.
    if (!(await repos.members.remove(input.organizationId, input.memberId))) throw notFound();
    await repos.auditEvents.record({
      type: "member.removed",
      organizationId: input.organizationId,
      projectId: null,
      targetId: input.memberId,
      origin,
    });
  });
  return { removed: true, id: input.memberId };
}
