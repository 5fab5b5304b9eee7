import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { changePassword } from "../../flows/auth/change-password.js";
import { requestPasswordReset, resetPassword } from "../../flows/auth/password-reset.js";
import { clientOf, projectOf } from "./principals.js";
import { ownerOf } from "./sessions.js";

/** RequestPasswordReset, ResetPassword, ChangePassword. */
export function passwordHandlers(deps: FlowDeps) {
  return {
    async requestPasswordReset(req, ctx) {
      return requestPasswordReset(deps, projectOf(ctx), {
        email: req.email,
        redirectUrl: req.redirectUrl,
        ip: clientOf(ctx).ipAddress,
        acceptLanguage: clientOf(ctx).acceptLanguage,
      });
    },
    async resetPassword(req, ctx) {
      return resetPassword(
        deps,
        projectOf(ctx),
        { resetToken: req.resetToken, newPassword: req.newPassword },
        clientOf(ctx),
      );
    },
    async changePassword(req, ctx) {
      return changePassword(
        deps,
        projectOf(ctx),
        ownerOf(ctx),
        { currentPassword: req.currentPassword, newPassword: req.newPassword },
        auditOriginOf(ctx.values),
      );
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}
