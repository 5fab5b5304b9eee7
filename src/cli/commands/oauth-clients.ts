import {
  CreateOAuthClientRequestSchema,
  CreateOAuthClientResponseSchema,
  DeleteOAuthClientRequestSchema,
  DeleteOAuthClientResponseSchema,
  ListOAuthClientsRequestSchema,
  ListOAuthClientsResponseSchema,
  RotateOAuthClientSecretRequestSchema,
  RotateOAuthClientSecretResponseSchema,
  UpdateOAuthClientRequestSchema,
  UpdateOAuthClientResponseSchema,
} from "../../../gen/gatehouse/account/v1/account_pb.js";
import { isIdOf } from "../../domain/ids.js";
import type { OAuthClient } from "../../domain/oauth-clients.js";
import { oauthClientNotFound } from "../../flows/oauth-clients/client-rules.js";
import { createOAuthClient } from "../../flows/oauth-clients/create-oauth-client.js";
import { deleteOAuthClient } from "../../flows/oauth-clients/delete-oauth-client.js";
import { listOAuthClients } from "../../flows/oauth-clients/list-oauth-clients.js";
import { rotateOAuthClientSecret } from "../../flows/oauth-clients/rotate-oauth-client-secret.js";
import { updateOAuthClient } from "../../flows/oauth-clients/update-oauth-client.js";
import {
  createOAuthClientInput,
  oauthClientProto,
  updateOAuthClientInput,
} from "../../handlers/account/oauth-clients.js";
import { OAuthClientEntity } from "../../store/entities/oauth-client.entity.js";
import type { Command } from "../command.js";
import type { CliContext } from "../context.js";
import { usageError } from "../errors.js";
import { flag, list, text, type Values } from "../options.js";
import { moreLine, PAGE_OPTIONS, PAGE_SYNOPSIS, pageFields, readPages } from "../paging.js";
import { checkedRequest, wireJson } from "../request.js";
import { organizationOption, projectOption } from "../scope.js";
import { required } from "./webhooks.js";

// OAuth clients of a project's OpenID Provider (API.md section 7, issue 28), as the Account
// interface manages them. A command naming a client (`--id oac_…`) may leave `--org` out, as
// one naming a project may: the client names its organization.

const SECRET_ONCE = "the secret above is shown only now: store it in the client's configuration";
const ID_HELP = "the OAuth client's id (`gatehouse oauth-client list --project ID` shows them)";

const SETTINGS = {
  "redirect-uri": { type: "string", multiple: true },
  "post-logout-redirect-uri": { type: "string", multiple: true },
  "grant-type": { type: "string", multiple: true },
  scope: { type: "string", multiple: true },
  "logo-uri": { type: "string" },
} as const;

export const oauthClientCommands: Command[] = [
  {
    name: "oauth-client create",
    synopsis:
      "--project PROJECT_ID --name NAME [--type confidential|public] [--redirect-uri URI]... [--post-logout-redirect-uri URI]... [--grant-type GRANT]... [--scope SCOPE]... [--first-party] [--logo-uri URL] [--allow-missing-pkce] [--org ORG_ID]",
    options: {
      org: { type: "string" },
      project: { type: "string" },
      name: { type: "string" },
      type: { type: "string" },
      "first-party": { type: "boolean" },
      "allow-missing-pkce": { type: "boolean" },
      ...SETTINGS,
    },
    async run(ctx, values) {
      required(values, "project", "the project's id (`gatehouse project list --org ID` shows them)");
      required(values, "name", "the name shown on the consent page");
      const req = checkedRequest(CreateOAuthClientRequestSchema, {
        projectId: text(values, "project") ?? "",
        name: text(values, "name") ?? "",
        type: text(values, "type") ?? "confidential",
        redirectUris: list(values, "redirect-uri"),
        postLogoutRedirectUris: list(values, "post-logout-redirect-uri"),
        grantTypes: list(values, "grant-type"),
        scopes: list(values, "scope"),
        firstParty: flag(values, "first-party"),
        logoUri: text(values, "logo-uri") ?? "",
        allowMissingPkce: flag(values, "allow-missing-pkce"),
      });
      const { organizationId, project } = await projectOption(ctx, values);
      const { client, secret } = await createOAuthClient(
        await ctx.deps(),
        organizationId,
        { ...createOAuthClientInput(req), projectId: project.id },
        ctx.origin,
      );
      return {
        json: wireJson(CreateOAuthClientResponseSchema, {
          client: oauthClientProto(client),
          clientId: client.id,
          clientSecret: secret ?? "",
        }),
        // A confidential client's secret alone on the first line, so `| head -1` takes it; it is shown this once.
        text: secret
          ? `${secret}\ncreated OAuth client ${clientLine(client)}\n${SECRET_ONCE}`
          : `created OAuth client ${clientLine(client)}`,
      };
    },
  },
  {
    name: "oauth-client list",
    synopsis: `--project PROJECT_ID [--org ORG_ID] ${PAGE_SYNOPSIS}`,
    options: { org: { type: "string" }, project: { type: "string" }, ...PAGE_OPTIONS },
    async run(ctx, values) {
      required(values, "project", "the project's id (`gatehouse project list --org ID` shows them)");
      const request = checkedRequest(ListOAuthClientsRequestSchema, {
        projectId: text(values, "project") ?? "",
        ...pageFields(values),
      });
      const { organizationId, project } = await projectOption(ctx, values);
      const deps = await ctx.deps();
      const page = await readPages(values, request, (p) =>
        listOAuthClients(deps, organizationId, { projectId: project.id, ...p }),
      );
      return {
        json: wireJson(ListOAuthClientsResponseSchema, {
          data: page.data.map(oauthClientProto),
          nextCursor: page.nextCursor,
          hasMore: page.hasMore,
        }),
        text: [...page.data.map(clientLine), ...moreLine(page)].join("\n") || "no OAuth clients",
      };
    },
  },
  {
    name: "oauth-client update",
    synopsis:
      "--id CLIENT_ID [--name NAME] [--redirect-uri URI]... [--post-logout-redirect-uri URI]... [--grant-type GRANT]... [--scope SCOPE]... [--first-party | --third-party] [--logo-uri URL] [--allow-missing-pkce | --require-pkce] [--org ORG_ID]",
    options: {
      org: { type: "string" },
      id: { type: "string" },
      name: { type: "string" },
      "first-party": { type: "boolean" },
      "third-party": { type: "boolean" },
      "allow-missing-pkce": { type: "boolean" },
      "require-pkce": { type: "boolean" },
      ...SETTINGS,
    },
    async run(ctx, values) {
      required(values, "id", ID_HELP);
      if (flag(values, "first-party") && flag(values, "third-party"))
        throw usageError("--first-party and --third-party contradict each other: give one");
      if (flag(values, "allow-missing-pkce") && flag(values, "require-pkce"))
        throw usageError("--allow-missing-pkce and --require-pkce contradict each other: give one");
      const names = [
        "name",
        "first-party",
        "third-party",
        "allow-missing-pkce",
        "require-pkce",
        ...Object.keys(SETTINGS),
      ];
      if (names.every((name) => values[name] === undefined))
        throw usageError(`nothing to change: give ${names.map((name) => `--${name}`).join(", ")}`);
      const req = checkedRequest(UpdateOAuthClientRequestSchema, {
        clientId: text(values, "id") ?? "",
        name: text(values, "name"),
        redirectUris: list(values, "redirect-uri"),
        postLogoutRedirectUris: list(values, "post-logout-redirect-uri"),
        grantTypes: list(values, "grant-type"),
        scopes: list(values, "scope"),
        firstParty: flag(values, "first-party") ? true : flag(values, "third-party") ? false : undefined,
        logoUri: text(values, "logo-uri"),
        allowMissingPkce: flag(values, "allow-missing-pkce") ? true : flag(values, "require-pkce") ? false : undefined,
      });
      const organizationId = await clientOrganization(ctx, values, req.clientId);
      const client = await updateOAuthClient(await ctx.deps(), organizationId, updateOAuthClientInput(req), ctx.origin);
      return {
        json: wireJson(UpdateOAuthClientResponseSchema, { client: oauthClientProto(client) }),
        text: `updated OAuth client ${clientLine(client)}`,
      };
    },
  },
  {
    name: "oauth-client delete",
    synopsis: "--id CLIENT_ID [--org ORG_ID]",
    options: { org: { type: "string" }, id: { type: "string" } },
    async run(ctx, values) {
      required(values, "id", ID_HELP);
      const req = checkedRequest(DeleteOAuthClientRequestSchema, { clientId: text(values, "id") ?? "" });
      const organizationId = await clientOrganization(ctx, values, req.clientId);
      const answer = await deleteOAuthClient(await ctx.deps(), organizationId, req.clientId, ctx.origin);
      return {
        json: wireJson(DeleteOAuthClientResponseSchema, answer),
        text: `deleted OAuth client ${answer.id} with its consents and every token issued to it`,
      };
    },
  },
  {
    name: "oauth-client rotate-secret",
    synopsis: "--id CLIENT_ID [--org ORG_ID]",
    options: { org: { type: "string" }, id: { type: "string" } },
    async run(ctx, values) {
      required(values, "id", ID_HELP);
      const req = checkedRequest(RotateOAuthClientSecretRequestSchema, { clientId: text(values, "id") ?? "" });
      const organizationId = await clientOrganization(ctx, values, req.clientId);
      const { client, secret } = await rotateOAuthClientSecret(
        await ctx.deps(),
        organizationId,
        req.clientId,
        ctx.origin,
      );
      return {
        json: wireJson(RotateOAuthClientSecretResponseSchema, {
          clientId: client.id,
          clientSecret: secret,
          client: oauthClientProto(client),
        }),
        text: `${secret}\nnew secret for OAuth client ${client.id}; the previous one no longer works\n${SECRET_ONCE}`,
      };
    },
  },
];

/** `--org`, or the organization of the client `id` names; an unknown client is OAUTH_CLIENT_NOT_FOUND. */
async function clientOrganization(ctx: CliContext, values: Values, id: string): Promise<string> {
  if (text(values, "org") !== undefined) return organizationOption(ctx, values);
  if (!isIdOf("oac", id)) throw oauthClientNotFound();
  const { manager } = (await ctx.deps()).db.dataSource;
  const row = await manager.findOne(OAuthClientEntity, { select: { organizationId: true }, where: { id } });
  if (!row) throw oauthClientNotFound();
  return row.organizationId;
}

function clientLine(c: OAuthClient): string {
  const party = c.firstParty ? "  first-party" : "";
  // The legacy exception is said on every line, so an upgraded installation's list shows what to turn off.
  const pkce = c.allowMissingPkce ? "  PKCE optional" : "";
  return `${c.id}  ${c.name}  ${c.type}${party}${pkce}  grants ${c.grantTypes.join(",")}  project ${c.projectId}  created ${c.createdAt.toISOString()}`;
}
