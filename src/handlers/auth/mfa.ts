import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { validationFailed } from "../../domain/errors.js";
import { isMfaMethod, type MfaMethod } from "../../domain/mfa.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { startMfaEnrollment } from "../../flows/auth/mfa/enroll.js";
import { regenerateRecoveryCodes } from "../../flows/auth/mfa/recovery-codes.js";
import { unenrollMfa } from "../../flows/auth/mfa/unenroll.js";
import { verifyMfa } from "../../flows/auth/mfa/verify.js";
import { signInResponse } from "./mappers.js";
import { clientOf, projectOf, userOf } from "./principals.js";
import { ownerOf } from "./sessions.js";

/** StartMfaEnrollment, VerifyMfa, UnenrollMfa, RegenerateRecoveryCodes. */
export function mfaHandlers(deps: FlowDeps) {
  return {
    async startMfaEnrollment(req, ctx) {
      return startMfaEnrollment(deps, projectOf(ctx), {
        method: requiredMethod(req.method),
        phone: req.phone,
        mfaToken: req.mfaToken,
        userId: userOf(ctx)?.userId,
        ip: clientOf(ctx).ipAddress,
        acceptLanguage: clientOf(ctx).acceptLanguage,
      });
    },
    async verifyMfa(req, ctx) {
      const input = {
        mfaToken: req.mfaToken,
        code: req.code,
        method: method(req.method),
        userId: userOf(ctx)?.userId,
        client: clientOf(ctx),
      };
      const result = await verifyMfa(deps, projectOf(ctx), input);
      return {
        ...(result.outcome && signInResponse(result.outcome)),
        ...(result.enrolled && {
          enrolled: true,
          method: result.enrolled.method,
          recoveryCodes: result.enrolled.recoveryCodes,
        }),
      };
    },
    async unenrollMfa(req, ctx) {
      return unenrollMfa(
        deps,
        projectOf(ctx),
        ownerOf(ctx).userId,
        requiredMethod(req.method),
        auditOriginOf(ctx.values),
      );
    },
    async regenerateRecoveryCodes(_req, ctx) {
      return regenerateRecoveryCodes(deps, projectOf(ctx), ownerOf(ctx).userId, auditOriginOf(ctx.values));
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}

/** The proto's `in` rule admits only `totp` and `sms`; "" means absent. */
function method(value: string): MfaMethod | undefined {
  return isMfaMethod(value) ? value : undefined;
}

/** The proto's `in: ["totp", "sms"]` has refused any other value before the handler runs. */
function requiredMethod(value: string): MfaMethod {
  if (!isMfaMethod(value)) throw validationFailed([{ field: "method", description: "must be totp or sms" }]);
  return value;
}
