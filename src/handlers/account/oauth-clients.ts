import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type {
  CreateOAuthClientRequest,
  UpdateOAuthClientRequest,
} from "../../../gen/gatehouse/account/v1/oauth_clients_pb.js";
import type { OAuthClient, OAuthClientType } from "../../domain/oauth-clients.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { createOAuthClient } from "../../flows/oauth-clients/create-oauth-client.js";
import { deleteOAuthClient } from "../../flows/oauth-clients/delete-oauth-client.js";
import { listOAuthClients } from "../../flows/oauth-clients/list-oauth-clients.js";
import { rotateOAuthClientSecret } from "../../flows/oauth-clients/rotate-oauth-client-secret.js";
import { updateOAuthClient } from "../../flows/oauth-clients/update-oauth-client.js";
import { organizationOf } from "./organization-of.js";

/** CreateOAuthClient's request as the flow takes it (the handler's and the CLI's). */
export function createOAuthClientInput(req: CreateOAuthClientRequest) {
  return {
    projectId: req.projectId,
    name: req.name,
    // The proto's rule lets only these two through.
    type: req.type as OAuthClientType,
    redirectUris: req.redirectUris,
    postLogoutRedirectUris: req.postLogoutRedirectUris,
    grantTypes: req.grantTypes,
    scopes: req.scopes,
    firstParty: req.firstParty,
    logoUri: req.logoUri,
    allowMissingPkce: req.allowMissingPkce,
  };
}

/** UpdateOAuthClient's request as the flow takes it (the handler's and the CLI's). */
export function updateOAuthClientInput(req: UpdateOAuthClientRequest) {
  return {
    clientId: req.clientId,
    name: req.name,
    redirectUris: req.redirectUris,
    postLogoutRedirectUris: req.postLogoutRedirectUris,
    grantTypes: req.grantTypes,
    scopes: req.scopes,
    firstParty: req.firstParty,
    logoUri: req.logoUri,
    allowMissingPkce: req.allowMissingPkce,
  };
}

/** The OAuth client RPCs. A secret goes out twice only: at creation and at rotation. */
export function oauthClientsHandlers(deps: FlowDeps) {
  return {
    async createOAuthClient(req, ctx) {
      const { client, secret } = await createOAuthClient(
        deps,
        organizationOf(ctx),
        createOAuthClientInput(req),
        auditOriginOf(ctx.values),
      );
      return { client: oauthClientProto(client), clientId: client.id, clientSecret: secret ?? "" };
    },

    async listOAuthClients(req, ctx) {
      const page = await listOAuthClients(deps, organizationOf(ctx), {
        projectId: req.projectId,
        limit: req.limit,
        cursor: req.cursor,
      });
      return { data: page.data.map(oauthClientProto), nextCursor: page.nextCursor, hasMore: page.hasMore };
    },

    async updateOAuthClient(req, ctx) {
      const client = await updateOAuthClient(
        deps,
        organizationOf(ctx),
        updateOAuthClientInput(req),
        auditOriginOf(ctx.values),
      );
      return { client: oauthClientProto(client) };
    },

    async deleteOAuthClient(req, ctx) {
      return deleteOAuthClient(deps, organizationOf(ctx), req.clientId, auditOriginOf(ctx.values));
    },

    async rotateOAuthClientSecret(req, ctx) {
      const { client, secret } = await rotateOAuthClientSecret(
        deps,
        organizationOf(ctx),
        req.clientId,
        auditOriginOf(ctx.values),
      );
      return { clientId: client.id, clientSecret: secret, client: oauthClientProto(client) };
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}

// Field by field, so nothing but these ever reaches the wire (the CLI prints the same).
export function oauthClientProto(c: OAuthClient) {
  return {
    clientId: c.id,
    projectId: c.projectId,
    name: c.name,
    type: c.type,
    redirectUris: c.redirectUris,
    grantTypes: c.grantTypes,
    scopes: c.scopes,
    firstParty: c.firstParty,
    logoUri: c.logoUri,
    postLogoutRedirectUris: c.postLogoutRedirectUris,
    secretHint: c.secretHint ?? "",
    allowMissingPkce: c.allowMissingPkce,
    createdAt: timestampFromDate(c.createdAt),
    updatedAt: timestampFromDate(c.updatedAt),
  };
}
