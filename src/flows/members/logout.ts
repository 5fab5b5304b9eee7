import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";

export interface LogoutInput {
  organizationId: string;
  memberId: string;
  /** The row id of the management token of the request. */
  tokenId: string;
}

// The token's row is deleted: the credential check reads management tokens from the database
// on every request, on every instance, so the next request with it fails everywhere. The
// member's other tokens stay.
export async function logout(
  deps: Pick<FlowDeps, "db">,
  input: LogoutInput,
  origin: AuditOrigin,
): Promise<{ revoked: boolean }> {
  const revoked = await deps.db.transaction(async (repos) => {
    if (!(await repos.managementTokens.revoke(input.organizationId, input.memberId, input.tokenId))) return false;
    await repos.auditEvents.record({
      type: "member.logout",
      organizationId: input.organizationId,
      projectId: null,
      targetId: input.memberId,
      origin,
    });
    return true;
  });
  return { revoked };
}
