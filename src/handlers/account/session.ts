import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import { accountLogin } from "../../flows/account-login.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { acceptInvitation } from "../../flows/members/accept-invitation.js";
import { logout } from "../../flows/members/logout.js";
import type { MemberChallenge } from "../../flows/members/mfa/challenge.js";
import { kRequest } from "../../interceptors/context.js";
import { memberOf } from "./organization-of.js";

/** The challenge fields of a Login or AcceptInvitation answer that holds the sign-in (API: LoginResponse). */
export function challengeFields(challenge: MemberChallenge) {
  return {
    mfaRequired: true,
    mfaToken: challenge.mfaToken,
    mfaMethods: challenge.methods,
    expiresIn: challenge.expiresIn,
    organizationId: challenge.organizationId,
  };
}

/** The RPCs that begin and end a management token: Login, AcceptInvitation and Logout. */
export function sessionHandlers(deps: FlowDeps) {
  return {
    async login(req, ctx) {
      const ip = ctx.values.get(kRequest)?.ip ?? "";
      const result = await accountLogin(
        deps,
        { email: req.email, password: req.password, organizationId: req.organizationId || undefined, ip },
        auditOriginOf(ctx.values),
      );
      if (result.kind === "choose") return { organizations: result.organizations };
      if (result.kind === "challenge") return challengeFields(result.challenge);
      const { token, organizationId } = result;
      return { managementToken: token.managementToken, expiresAt: timestampFromDate(token.expiresAt), organizationId };
    },

    async acceptInvitation(req, ctx) {
      const accepted = await acceptInvitation(
        deps,
        { token: req.token, password: req.password },
        auditOriginOf(ctx.values),
      );
      if (accepted.challenge) return { ...challengeFields(accepted.challenge), email: accepted.email };
      return {
        managementToken: accepted.token.managementToken,
        expiresAt: timestampFromDate(accepted.token.expiresAt),
        organizationId: accepted.organizationId,
        email: accepted.email,
      };
    },

    async logout(_req, ctx) {
      const { member, organizationId, tokenId } = memberOf(ctx);
      return logout(deps, { organizationId, memberId: member.id, tokenId }, auditOriginOf(ctx.values));
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}
