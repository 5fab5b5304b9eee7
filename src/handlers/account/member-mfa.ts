import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { FlowDeps } from "../../flows/deps.js";
import type { MemberSignedIn } from "../../flows/members/mfa/complete.js";
import type { MemberCaller } from "../../flows/members/mfa/identity.js";
import { startMemberMfaEnrollment } from "../../flows/members/mfa/enroll.js";
import { getMemberMfa, regenerateMemberRecoveryCodes, unenrollMemberMfa } from "../../flows/members/mfa/manage.js";
import { verifyMemberMfa } from "../../flows/members/mfa/verify.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import { kMember, kRequest } from "../../interceptors/context.js";
import { memberOf } from "./organization-of.js";

/** The caller of an RPC that takes a management token or an mfa_token (CREDENTIAL_OPTIONAL_MANAGEMENT_TOKEN). */
export function memberCaller(ctx: HandlerContext, mfaToken: string): MemberCaller {
  return { mfaToken, principal: ctx.values.get(kMember) };
}

/** The token fields of a finished member sign-in; empty when there is none. */
export function signedInFields(signedIn: MemberSignedIn | undefined) {
  if (!signedIn) return {};
  return {
    managementToken: signedIn.token.managementToken,
    expiresAt: timestampFromDate(signedIn.token.expiresAt),
    organizationId: signedIn.organizationId,
  };
}

/** Members' second factor: TOTP and recovery codes, and the answer to a sign-in challenge. */
export function memberMfaHandlers(deps: FlowDeps) {
  return {
    async verifyMemberMfa(req, ctx) {
      const result = await verifyMemberMfa(
        deps,
        {
          ...memberCaller(ctx, req.mfaToken),
          code: req.code,
          method: req.method === "totp" ? "totp" : undefined,
          ip: ctx.values.get(kRequest)?.ip ?? "",
        },
        auditOriginOf(ctx.values),
      );
      return {
        ...signedInFields(result.signedIn),
        ...(result.enrolled && {
          enrolled: true,
          method: result.enrolled.method,
          recoveryCodes: result.enrolled.recoveryCodes,
        }),
      };
    },

    async startMemberMfaEnrollment(req, ctx) {
      // The validation interceptor admits only "totp".
      return startMemberMfaEnrollment(deps, memberCaller(ctx, req.mfaToken), "totp");
    },

    async unenrollMemberMfa(_req, ctx) {
      return unenrollMemberMfa(deps, memberOf(ctx), "totp", auditOriginOf(ctx.values));
    },

    async regenerateMemberRecoveryCodes(_req, ctx) {
      return regenerateMemberRecoveryCodes(deps, memberOf(ctx), auditOriginOf(ctx.values));
    },

    async getMemberMfa(_req, ctx) {
      const status = await getMemberMfa(deps, memberOf(ctx));
      return {
        mfaEnabled: status.mfaEnabled,
        mfaMethods: status.methods,
        recoveryCodesRemaining: status.recoveryCodesRemaining,
        requiredByOrganization: status.requiredByOrganization,
      };
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}
