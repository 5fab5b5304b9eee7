import type { ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { FlowDeps } from "../../flows/deps.js";
import { organizationOf } from "./organization-of.js";
import { getUsageMetrics } from "../../flows/usage/get-usage-metrics.js";

/** GetUsageMetrics. Empty strings are proto3's "absent". */
export function usageHandlers(deps: FlowDeps) {
  return {
    async getUsageMetrics(req, ctx) {
      const usage = await getUsageMetrics(deps, organizationOf(ctx), {
        projectId: req.projectId || undefined,
        from: req.from || undefined,
        to: req.to || undefined,
      });
      return {
        period: usage.period,
        mau: usage.mau,
        totalLogins: usage.totalLogins,
        tokensIssued: usage.tokensIssued,
        passwordlessLogins: usage.passwordlessLogins,
        passkeyLogins: usage.passkeyLogins,
        ssoLogins: usage.ssoLogins,
      };
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}
