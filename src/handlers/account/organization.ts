import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { Organization } from "../../domain/account.js";
import type { FlowDeps } from "../../flows/deps.js";
import { getOrganization, updateOrganization } from "../../flows/organizations/organization-settings.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import { memberOf } from "./organization-of.js";

function toProto(organization: Organization) {
  return {
    id: organization.id,
    name: organization.name,
    requireMemberMfa: organization.requireMemberMfa,
    createdAt: timestampFromDate(organization.createdAt),
  };
}

/** GetOrganization and UpdateOrganization: the caller's own organization and its settings. */
export function organizationHandlers(deps: FlowDeps) {
  return {
    async getOrganization(_req, ctx) {
      return { organization: toProto(await getOrganization(deps, memberOf(ctx))) };
    },

    async updateOrganization(req, ctx) {
      const updated = await updateOrganization(
        deps,
        memberOf(ctx),
        { requireMemberMfa: req.requireMemberMfa },
        auditOriginOf(ctx.values),
      );
      return { organization: toProto(updated.organization), revokedTokens: updated.revokedTokens };
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}
