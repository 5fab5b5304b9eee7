import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { MemberRole } from "../../domain/account.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { inviteMember } from "../../flows/members/invite-member.js";
import { listMembers, withMfaFlag, type ListedMember } from "../../flows/members/list-members.js";
import { currentMember } from "../../flows/members/current-member.js";
import { listMemberInvitations } from "../../flows/members/list-member-invitations.js";
import { removeMember } from "../../flows/members/remove-member.js";
import { updateMember } from "../../flows/members/update-member.js";
import { inviterOf, memberOf, organizationOf } from "./organization-of.js";

function memberMessage(m: ListedMember) {
  return {
    id: m.id,
    email: m.email,
    role: m.role,
    createdAt: timestampFromDate(m.createdAt),
    mfaEnabled: m.mfaEnabled,
  };
}

/**
 * InviteMember, ListMembers, UpdateMember, RemoveMember, ListMemberInvitations and
 * GetCurrentMember; AcceptInvitation needs no credential and sits with Login.
 */
export function membersHandlers(deps: FlowDeps) {
  return {
    async inviteMember(req, ctx) {
      // The validation interceptor admits only "admin" and "developer".
      return inviteMember(
        deps,
        { inviter: inviterOf(ctx), email: req.email, role: req.role as MemberRole },
        auditOriginOf(ctx.values),
      );
    },

    async listMembers(req, ctx) {
      const page = await listMembers(deps, {
        organizationId: organizationOf(ctx),
        limit: req.limit,
        cursor: req.cursor,
      });
      return {
        data: page.data.map(memberMessage),
        nextCursor: page.nextCursor,
        hasMore: page.hasMore,
      };
    },

    async updateMember(req, ctx) {
      const member = await updateMember(
        deps,
        // The validation interceptor admits only "admin" and "developer".
        { organizationId: organizationOf(ctx), memberId: req.id, role: req.role as MemberRole },
        auditOriginOf(ctx.values),
      );
      return { member: memberMessage(await withMfaFlag(deps, member)) };
    },

    async listMemberInvitations(req, ctx) {
      const page = await listMemberInvitations(deps, {
        organizationId: organizationOf(ctx),
        limit: req.limit,
        cursor: req.cursor,
      });
      return {
        data: page.data.map((v) => ({
          id: v.id,
          email: v.email,
          role: v.role,
          invitedBy: v.invitedBy ?? "",
          createdAt: timestampFromDate(v.createdAt),
          expiresAt: timestampFromDate(v.expiresAt),
        })),
        nextCursor: page.nextCursor,
        hasMore: page.hasMore,
      };
    },

    async getCurrentMember(_req, ctx) {
      const current = await currentMember(deps, memberOf(ctx).member);
      return {
        member: memberMessage(await withMfaFlag(deps, current.member)),
        organizationId: current.organizationId,
        organizationName: current.organizationName,
      };
    },

    async removeMember(req, ctx) {
      return removeMember(deps, { organizationId: organizationOf(ctx), memberId: req.id }, auditOriginOf(ctx.values));
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}
