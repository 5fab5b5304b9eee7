import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { SsoConnection, SsoProvider } from "../../domain/sso.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { memberOf, organizationOf } from "./organization-of.js";
import { createSsoConnection } from "../../flows/sso-connections/create-sso-connection.js";
import { deleteSsoConnection } from "../../flows/sso-connections/delete-sso-connection.js";
import { listSsoConnections } from "../../flows/sso-connections/list-sso-connections.js";
import { updateSsoConnection } from "../../flows/sso-connections/update-sso-connection.js";

/**
 * CreateSsoConnection, ListSsoConnections, UpdateSsoConnection, DeleteSsoConnection. The client
 * secret and Apple's private key only go in.
 */
export function ssoHandlers(deps: FlowDeps) {
  return {
    async createSsoConnection(req, ctx) {
      const connection = await createSsoConnection(
        deps,
        organizationOf(ctx),
        {
          projectId: req.projectId,
          name: req.name,
          provider: (req.provider || "oidc") as SsoProvider,
          issuer: req.issuer,
          endpoints: { authorizationUrl: req.authorizationUrl, tokenUrl: req.tokenUrl, userinfoUrl: req.userinfoUrl },
          claimMapping: req.claimMapping,
          hostedDomain: req.hostedDomain,
          clientId: req.clientId,
          clientSecret: req.clientSecret,
          scopes: req.scopes,
          trustEmails: req.trustEmails,
          allowedTenants: req.allowedTenants,
          teamId: req.teamId,
          keyId: req.keyId,
          privateKey: req.privateKey,
          position: req.position,
        },
        auditOriginOf(ctx.values),
        memberOf(ctx).member.role,
      );
      return toProto(connection);
    },

    async listSsoConnections(req, ctx) {
      const page = await listSsoConnections(deps, organizationOf(ctx), {
        projectId: req.projectId,
        limit: req.limit,
        cursor: req.cursor,
      });
      return { data: page.data.map(toProto), nextCursor: page.nextCursor, hasMore: page.hasMore };
    },

    async updateSsoConnection(req, ctx) {
      const connection = await updateSsoConnection(
        deps,
        organizationOf(ctx),
        {
          id: req.id,
          name: req.name,
          issuer: req.issuer,
          clientId: req.clientId,
          clientSecret: req.clientSecret,
          scopes: req.scopes,
          trustEmails: req.trustEmails,
          endpoints: { authorizationUrl: req.authorizationUrl, tokenUrl: req.tokenUrl, userinfoUrl: req.userinfoUrl },
          claimMapping: req.claimMapping,
          hostedDomain: req.hostedDomain,
          allowedTenants: req.allowedTenants,
          anyTenant: req.anyTenant,
          teamId: req.teamId,
          keyId: req.keyId,
          privateKey: req.privateKey,
          position: req.position,
        },
        auditOriginOf(ctx.values),
        memberOf(ctx).member.role,
      );
      return toProto(connection);
    },

    async deleteSsoConnection(req, ctx) {
      return deleteSsoConnection(deps, organizationOf(ctx), req.id, auditOriginOf(ctx.values));
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}

// Field by field, so nothing but these ever reaches the wire.
function toProto(c: SsoConnection) {
  return {
    id: c.id,
    projectId: c.projectId,
    name: c.name,
    issuer: c.issuer,
    clientId: c.clientId,
    scopes: c.scopes,
    createdAt: timestampFromDate(c.createdAt),
    trustEmails: c.trustEmails,
    provider: c.provider,
    authorizationUrl: c.endpoints.authorizationUrl,
    tokenUrl: c.endpoints.tokenUrl,
    userinfoUrl: c.endpoints.userinfoUrl,
    claimMapping: c.claimMapping as Record<string, string>,
    hostedDomain: c.hostedDomain,
    allowedTenants: c.allowedTenants,
    teamId: c.teamId,
    keyId: c.keyId,
    position: c.position,
  };
}
