import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { refresh } from "../../flows/auth/refresh.js";
import { revokeToken } from "../../flows/auth/revoke-token.js";
import { verifyToken } from "../../flows/auth/verify-token.js";
import { clientOf, projectOf } from "./principals.js";
import { notValidAnswer, validAnswer } from "./verify-answer.js";

/** Refresh, VerifyToken and RevokeToken. */
export function tokenHandlers(deps: FlowDeps) {
  return {
    async refresh(req, ctx) {
      const pair = await refresh(deps, projectOf(ctx), req.refreshToken, clientOf(ctx));
      return {
        accessToken: pair.accessToken,
        refreshToken: pair.refreshToken,
        expiresIn: pair.expiresIn,
        tokenType: pair.tokenType,
      };
    },

    async verifyToken(req, ctx) {
      const result = await verifyToken(deps, projectOf(ctx), req.token);
      return result.valid && result.claims ? validAnswer(result.claims) : notValidAnswer();
    },

    async revokeToken(req, ctx) {
      return revokeToken(deps, projectOf(ctx), req.token, auditOriginOf(ctx.values));
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}
