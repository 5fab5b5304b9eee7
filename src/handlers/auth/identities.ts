import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import type { UserIdentity } from "../../domain/sso.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { listIdentities, unlinkIdentity } from "../../flows/auth/identities.js";
import { projectOf } from "./principals.js";
import { actorOf } from "./users.js";

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

/** LinkedIdentity, as ListIdentities and GetUser answer it. */
export function identityToProto(i: UserIdentity) {
  return {
    id: i.id,
    connectionId: i.connectionId,
    connectionName: i.connectionName,
    connectionProvider: i.connectionProvider,
    provider: i.issuer,
    subject: i.subject,
    email: i.email,
    linkedAt: timestampFromDate(i.linkedAt),
  };
}
