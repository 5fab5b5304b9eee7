import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { MemberRole } from "../../domain/account.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { inviteMember } from "../../flows/members/invite-member.js";
import { listMembers } from "../../flows/members/list-members.js";
import { removeMember } from "../../flows/members/remove-member.js";
import { memberOf } from "./organization-of.js";

/** InviteMember, ListMembers and RemoveMember; AcceptInvitation needs no credential and sits with Login. */
export function membersHandlers(deps: FlowDeps) {
  return {
    async inviteMember(req, ctx) {
      // The validation interceptor admits only "admin" and "developer".
      return inviteMember(
        deps,
        { inviter: memberOf(ctx).member, email: req.email, role: req.role as MemberRole },
        auditOriginOf(ctx.values),
      );
    },

    async listMembers(req, ctx) {
      const page = await listMembers(deps, {
        organizationId: memberOf(ctx).organizationId,
        limit: req.limit,
        cursor: req.cursor,
      });
      return {
        data: page.data.map((m) => ({
          id: m.id,
          email: m.email,
          role: m.role,
          createdAt: timestampFromDate(m.createdAt),
          mfaEnabled: m.mfaEnabled,
        })),
        nextCursor: page.nextCursor,
        hasMore: page.hasMore,
      };
    },

    async removeMember(req, ctx) {
      return removeMember(
        deps,
        { organizationId: memberOf(ctx).organizationId, memberId: req.id },
        auditOriginOf(ctx.values),
      );
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}
