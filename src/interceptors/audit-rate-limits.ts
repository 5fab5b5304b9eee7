import type { Interceptor } from "@connectrpc/connect";
import { DomainError } from "../domain/errors.js";
import { firstRefusal, rateLimitDetails, refusalKey, throttleKey } from "../flows/audit/rate-limit.js";
import { recordAlone } from "../flows/audit/record.js";
import type { FlowDeps } from "../flows/deps.js";
import { auditOriginOf } from "./audit-origin.js";
import { kMember, kProject, kUser } from "./context.js";

// VerifyMfa is a sign-in with an mfa_token; without one (an enrollment confirmed) no limit refuses it.
const SIGN_INS = new Set([
  "AuthService/Login",
  "AuthService/VerifyOtp",
  "AuthService/VerifyMagicLink",
  "AuthService/VerifyMfa",
  "AuthService/SsoExchange",
  "AccountService/Login",
]);

/**
 * Records `rate_limit.exceeded` for the RPCs a rate limit refused, in one place rather than in
 * each flow that counts something: the first refusal of each limited key in its wait, so a
 * flood writes one row (rate-limit.ts). Sign-ins are their flows' to record, with the
 * attempt's email hash (flows/audit: auditedSignIn, and a member's Login in each organization of
 * the identity), so their RPCs are left out here by name rather than by what a flow did with
 * an error. Any other request with no organization known has no log to go to.
 */
export function auditRateLimitsInterceptor(deps: FlowDeps): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (error) {
      const rpc = `${req.service.name}/${req.method.name}`;
      if (error instanceof DomainError && error.reason === "RATE_LIMITED" && !SIGN_INS.has(rpc)) {
        const project = req.contextValues.get(kProject)?.project;
        const organizationId = project?.organizationId ?? req.contextValues.get(kMember)?.organizationId;
        if (organizationId !== undefined) {
          const origin = auditOriginOf(req.contextValues);
          const key = throttleKey(error, () => refusalKey(deps, organizationId, project?.id ?? "", rpc, origin.ip));
          if (await firstRefusal(deps, key, error)) {
            await recordAlone(deps, {
              type: "rate_limit.exceeded",
              organizationId,
              projectId: project?.id ?? null,
              userId: req.contextValues.get(kUser)?.userId ?? null,
              reason: error.reason,
              details: { rpc, ...rateLimitDetails(error) },
              origin,
            });
          }
        }
      }
      throw error;
    }
  };
}
