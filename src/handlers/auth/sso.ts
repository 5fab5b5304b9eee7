import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import type { FlowDeps } from "../../flows/deps.js";
import { ssoAuthorize } from "../../flows/auth/sso/authorize.js";
import { ssoExchange } from "../../flows/auth/sso/exchange.js";
import { signInResponse } from "./mappers.js";
import { clientOf, projectOf } from "./principals.js";

/** SsoAuthorize and SsoExchange; the browser routes are in routes/sso.ts. */
export function ssoHandlers(deps: FlowDeps) {
  return {
    async ssoAuthorize(req, ctx) {
      return ssoAuthorize(deps, projectOf(ctx), {
        connectionId: req.connectionId,
        redirectUrl: req.redirectUrl,
        codeChallenge: req.codeChallenge,
      });
    },
    async ssoExchange(req, ctx) {
      return signInResponse(
        await ssoExchange(deps, projectOf(ctx), {
          code: req.code,
          codeVerifier: req.codeVerifier,
          client: clientOf(ctx),
        }),
      );
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}
