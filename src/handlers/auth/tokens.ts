import type { ServiceImpl } from "@connectrpc/connect";
import type { JsonObject } from "@bufbuild/protobuf";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { refresh } from "../../flows/auth/refresh.js";
import { revokeToken } from "../../flows/auth/revoke-token.js";
import { verifyToken } from "../../flows/auth/verify-token.js";
import { clientOf, projectOf } from "./principals.js";

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
      if (!result.valid || !result.claims) return { valid: false };
      const c = result.claims;
      return {
        valid: true,
        claims: {
          sub: c.sub,
          email: c.email,
          iat: c.iat,
          exp: c.exp,
          projectId: c.project_id,
          iss: c.iss,
          aud: c.aud,
          jti: c.jti,
          sid: c.sid,
          amr: c.amr,
          // Tokens issued before the claim existed carry none: `{}`, as for a user without any.
          appMetadata: (c.app_metadata ?? {}) as JsonObject,
          customClaims: hookClaims(c),
        },
      };
    },

    async revokeToken(req, ctx) {
      return revokeToken(deps, projectOf(ctx), req.token, auditOriginOf(ctx.values));
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}

// The claims VerifyToken answers in their own fields; every other claim came from the
// project's custom_access_token hook.
const OWN_CLAIMS = new Set([
  "sub",
  "email",
  "iat",
  "exp",
  "project_id",
  "iss",
  "aud",
  "jti",
  "sid",
  "amr",
  "app_metadata",
]);

function hookClaims(claims: Record<string, unknown>): JsonObject {
  const added: JsonObject = {};
  for (const [name, value] of Object.entries(claims)) {
    if (!OWN_CLAIMS.has(name) && value !== undefined) added[name] = value as JsonObject[string];
  }
  return added;
}
