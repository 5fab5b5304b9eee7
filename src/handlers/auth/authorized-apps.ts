import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import type { AuthorizedApp } from "../../domain/oauth-clients.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { listAuthorizedApps, revokeAuthorizedApp } from "../../flows/auth/authorized-apps.js";
import { actorOf, projectOf } from "./principals.js";

/** The user's authorized applications (the project's OpenID Provider's clients it consented to). */
export function authorizedAppHandlers(deps: FlowDeps) {
  return {
    async listAuthorizedApps(req, ctx) {
      const apps = await listAuthorizedApps(deps, projectOf(ctx), actorOf(ctx), req.userId);
      return { data: apps.map(authorizedAppToProto) };
    },
    async revokeAuthorizedApp(req, ctx) {
      return revokeAuthorizedApp(
        deps,
        projectOf(ctx),
        actorOf(ctx),
        { clientId: req.clientId, userId: req.userId },
        auditOriginOf(ctx.values),
      );
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}

export function authorizedAppToProto(a: AuthorizedApp) {
  return {
    clientId: a.clientId,
    name: a.name,
    logoUri: a.logoUri,
    scopes: a.scopes,
    firstParty: a.firstParty,
    createdAt: timestampFromDate(a.createdAt),
    updatedAt: timestampFromDate(a.updatedAt),
  };
}
