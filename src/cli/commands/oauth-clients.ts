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
  type OAuthClient,
} from "../../../gen/gatehouse/account/v1/oauth_clients_pb.js";
import { isIdOf } from "../../domain/ids.js";
import { oauthClientNotFound } from "../../flows/oauth-clients/client-rules.js";
import type { Command } from "../command.js";
import type { CliContext } from "../context.js";
import { usageError } from "../errors.js";
import { flag, list, text, type Values } from "../options.js";
import { moreLine, PAGE_OPTIONS, PAGE_SYNOPSIS, pageFields, pageJson, readPages } from "../paging.js";
import { checkedRequest, iso } from "../request.js";
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
      const { organizationId } = await projectOption(ctx, values);
      const created = await (await ctx.account(organizationId)).createOAuthClient(req);
      const client = answered(created.client);
      const secret = created.clientSecret;
      return {
        json: ctx.restJson(CreateOAuthClientResponseSchema, created),
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
      const { organizationId } = await projectOption(ctx, values);
      const account = await ctx.account(organizationId);
      const page = await readPages(values, request, (p) => account.listOAuthClients({ ...request, ...p }));
      return {
        json: pageJson(ctx, ListOAuthClientsResponseSchema, page),
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
      const updated = await (await ctx.account(organizationId)).updateOAuthClient(req);
      return {
        json: ctx.restJson(UpdateOAuthClientResponseSchema, updated),
        text: `updated OAuth client ${clientLine(answered(updated.client))}`,
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
      const answer = await (await ctx.account(organizationId)).deleteOAuthClient(req);
      return {
        json: ctx.restJson(DeleteOAuthClientResponseSchema, answer),
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
      const rotated = await (await ctx.account(organizationId)).rotateOAuthClientSecret(req);
      return {
        json: ctx.restJson(RotateOAuthClientSecretResponseSchema, rotated),
        text: `${rotated.clientSecret}\nnew secret for OAuth client ${rotated.clientId}; the previous one no longer works\n${SECRET_ONCE}`,
      };
    },
  },
];

/** `--org`, or the organization of the client `id` names; an unknown client is OAUTH_CLIENT_NOT_FOUND. */
async function clientOrganization(ctx: CliContext, values: Values, id: string): Promise<string> {
  if (text(values, "org") !== undefined) return organizationOption(ctx, values);
  const organizationId = isIdOf("oac", id) ? await (await ctx.deps()).db.repos.oauthClients.organizationOf(id) : null;
  if (organizationId === null) throw oauthClientNotFound();
  return organizationId;
}

/** The client CreateOAuthClient and UpdateOAuthClient always answer with. */
function answered(client: OAuthClient | undefined): OAuthClient {
  if (!client) throw new Error("the RPC answered without its client");
  return client;
}

function clientLine(c: OAuthClient): string {
  const party = c.firstParty ? "  first-party" : "";
  // The legacy exception is said on every line, so an upgraded installation's list shows what to turn off.
  const pkce = c.allowMissingPkce ? "  PKCE optional" : "";
  return `${c.clientId}  ${c.name}  ${c.type}${party}${pkce}  grants ${c.grantTypes.join(",")}  project ${c.projectId}  created ${iso(c.createdAt)}`;
}
