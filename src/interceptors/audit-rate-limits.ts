import { getOption } from "@bufbuild/protobuf";
import type { Interceptor } from "@connectrpc/connect";
import { access } from "../../gen/gatehouse/options/v1/options_pb.js";
import { DomainError } from "../domain/errors.js";
import { firstRefusal, rateLimitDetails, refusalKey, throttleKey } from "../flows/audit/rate-limit.js";
import { recordAlone } from "../flows/audit/record.js";
import type { FlowDeps } from "../flows/deps.js";
import { auditOriginOf } from "./audit-origin.js";
import { kMember, kProject, kUser } from "./context.js";
import { kOperator } from "./operator-credential.js";

/**
 * Records `rate_limit.exceeded` for the RPCs a rate limit refused, in one place rather than in
 * each flow that counts something: the first refusal of each limited key in its wait, so a
 * flood writes one row (rate-limit.ts). Sign-ins are their flows' to record, with the
 * attempt's email hash (flows/audit: auditedSignIn, and a member's Login in each organization of
 * the identity), so the RPCs that declare `sign_in` in their access option are left out here
 * rather than by what a flow did with an error (VerifyMfa is a sign-in with an mfa_token;
 * without one, an enrollment confirmed, no limit refuses it). Any other request with no
 * organization known has no log to go to.
 */
export function auditRateLimitsInterceptor(deps: FlowDeps): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (error) {
      if (error instanceof DomainError && error.reason === "RATE_LIMITED" && !getOption(req.method, access).signIn) {
        const rpc = `${req.service.name}/${req.method.name}`;
        const project = req.contextValues.get(kProject)?.project;
        const organizationId =
          project?.organizationId ??
          req.contextValues.get(kMember)?.organizationId ??
          req.contextValues.get(kOperator)?.organizationId;
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
