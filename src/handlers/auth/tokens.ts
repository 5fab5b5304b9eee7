import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import type { FlowDeps } from "../../flows/deps.js";
import { verifyToken } from "../../flows/auth/verify-token.js";
import { projectOf } from "./principals.js";

/** VerifyToken (Refresh and RevokeToken join it with their flows). */
export function tokenHandlers(deps: FlowDeps): Partial<ServiceImpl<typeof AuthService>> {
  return {
    async verifyToken(req, ctx) {
      const result = await verifyToken(deps, projectOf(ctx), req.token);
      if (!result.valid || !result.claims) return { valid: false };
      const c = result.claims;
      return {
        valid: true,
        claims: { sub: c.sub, email: c.email, iat: c.iat, exp: c.exp, projectId: c.project_id, iss: c.iss, aud: c.aud, jti: c.jti, sid: c.sid, amr: c.amr },
      };
    },
  };
}
