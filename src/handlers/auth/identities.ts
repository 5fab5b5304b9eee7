import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { listIdentities, unlinkIdentity } from "../../flows/auth/identities.js";
import { identityToProto } from "./mappers.js";
import { actorOf, projectOf } from "./principals.js";

/** The user's linked SSO and social identities: ListIdentities and UnlinkIdentity. */
export function identityHandlers(deps: FlowDeps) {
  return {
    async listIdentities(req, ctx) {
      const identities = await listIdentities(deps, projectOf(ctx), actorOf(ctx), req.userId);
      return { data: identities.map(identityToProto) };
    },
    async unlinkIdentity(req, ctx) {
      return unlinkIdentity(
        deps,
        projectOf(ctx),
        actorOf(ctx),
        { id: req.id, userId: req.userId },
        auditOriginOf(ctx.values),
      );
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}
