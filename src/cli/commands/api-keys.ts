import {
  CreateApiKeyRequestSchema,
  CreateApiKeyResponseSchema,
  ListApiKeysRequestSchema,
  ListApiKeysResponseSchema,
  RevokeApiKeyRequestSchema,
  RevokeApiKeyResponseSchema,
  type ApiKey,
} from "../../../gen/gatehouse/account/v1/api_keys_pb.js";
import type { Command } from "../command.js";
import { list, text } from "../options.js";
import { moreLine, PAGE_OPTIONS, PAGE_SYNOPSIS, pageFields, pageJson, readPages } from "../paging.js";
import { checkedRequest } from "../request.js";
import { organizationOption, organizationOrProject, projectOption } from "../scope.js";

export const apiKeyCommands: Command[] = [
  {
    name: "apikey create",
    synopsis:
      "--project PROJECT_ID --label LABEL [--scope SCOPE]... [--kind secret|publishable] [--expires-at RFC3339] [--org ORG_ID]",
    options: {
      org: { type: "string" },
      project: { type: "string" },
      label: { type: "string" },
      scope: { type: "string", multiple: true },
      kind: { type: "string" },
      "expires-at": { type: "string" },
    },
    async run(ctx, values) {
      const req = checkedRequest(CreateApiKeyRequestSchema, {
        projectId: text(values, "project") ?? "",
        label: text(values, "label") ?? "",
        scopes: list(values, "scope"),
        expiresAt: text(values, "expires-at"),
        kind: text(values, "kind") ?? "",
      });
      const { organizationId } = await projectOption(ctx, values);
      const created = await (await ctx.account(organizationId)).createApiKey(req);
      return {
        json: ctx.restJson(CreateApiKeyResponseSchema, created),
        // The key alone on the first line, so `| head -1` takes it; it is shown this once.
        text: `${created.key}\ncreated ${keyLine(created)}\nthe key above is shown only now: store it as a secret`,
      };
    },
  },
  {
    name: "apikey list",
    synopsis: `--org ORG_ID | --project PROJECT_ID ${PAGE_SYNOPSIS}`,
    options: { org: { type: "string" }, project: { type: "string" }, ...PAGE_OPTIONS },
    async run(ctx, values) {
      const request = checkedRequest(ListApiKeysRequestSchema, {
        projectId: text(values, "project") ?? "",
        ...pageFields(values),
      });
      const { organizationId } = await organizationOrProject(ctx, values);
      const account = await ctx.account(organizationId);
      const page = await readPages(values, request, (p) => account.listApiKeys({ ...request, ...p }));
      return {
        json: pageJson(ctx, ListApiKeysResponseSchema, page),
        text: [...page.data.map(keyLine), ...moreLine(page)].join("\n") || "no active API keys",
      };
    },
  },
  {
    name: "apikey revoke",
    synopsis: "--org ORG_ID --id KEY_ID",
    options: { org: { type: "string" }, id: { type: "string" } },
    async run(ctx, values) {
      const req = checkedRequest(RevokeApiKeyRequestSchema, { id: text(values, "id") ?? "" });
      const organizationId = await organizationOption(ctx, values);
      const answer = await (await ctx.account(organizationId)).revokeApiKey(req);
      return {
        json: ctx.restJson(RevokeApiKeyResponseSchema, answer),
        text: answer.revoked ? `revoked ${answer.id}` : `${answer.id} was already revoked`,
      };
    },
  },
];

function keyLine(k: Omit<ApiKey, "$typeName">): string {
  // A google.protobuf.Value: the RFC 3339 time, or null for a key that never expires.
  const expiresAt = k.expiresAt?.kind.case === "stringValue" ? k.expiresAt.kind.value : undefined;
  const expires = expiresAt ? `expires ${expiresAt}` : "never expires";
  return `${k.id}  ${k.keyHint}…  ${k.kind}  ${k.scopes.join(",")}  ${JSON.stringify(k.label)}  project ${k.projectId}  ${expires}`;
}
