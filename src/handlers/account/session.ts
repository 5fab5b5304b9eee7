import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import { accountLogin } from "../../flows/account-login.js";
import type { FlowDeps } from "../../flows/deps.js";
import { acceptInvitation } from "../../flows/members/accept-invitation.js";

/** The RPCs that issue a management token without one: Login and AcceptInvitation. */
export function sessionHandlers(deps: FlowDeps): Partial<ServiceImpl<typeof AccountService>> {
  return {
    async login(req) {
      const token = await accountLogin(deps, { email: req.email, password: req.password });
      return { managementToken: token.managementToken, expiresAt: timestampFromDate(token.expiresAt) };
    },

    async acceptInvitation(req) {
      const token = await acceptInvitation(deps, { token: req.token, password: req.password });
      return { managementToken: token.managementToken, expiresAt: timestampFromDate(token.expiresAt) };
    },
  };
}
