import type { ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { changeMemberPassword } from "../../flows/members/change-member-password.js";
import { requestMemberPasswordReset, resetMemberPassword } from "../../flows/members/member-password-reset.js";
import { kRequest } from "../../interceptors/context.js";
import { memberOf } from "./organization-of.js";

/** ChangeMemberPassword (signed in) and the member password reset by email (no credential). */
export function memberPasswordsHandlers(deps: FlowDeps) {
  return {
    async changeMemberPassword(req, ctx) {
      const { member, organizationId, tokenId } = memberOf(ctx);
      return changeMemberPassword(
        deps,
        {
          organizationId,
          memberId: member.id,
          tokenId,
          currentPassword: req.currentPassword,
          newPassword: req.newPassword,
        },
        auditOriginOf(ctx.values),
      );
    },

    async requestMemberPasswordReset(req, ctx) {
      return requestMemberPasswordReset(deps, { email: req.email, ip: ctx.values.get(kRequest)?.ip ?? "" });
    },

    async resetMemberPassword(req, ctx) {
      return resetMemberPassword(deps, { token: req.token, newPassword: req.newPassword }, auditOriginOf(ctx.values));
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}
