import {
  CreateApiKeyRequestSchema,
  CreateApiKeyResponseSchema,
  ListApiKeysRequestSchema,
  ListApiKeysResponseSchema,
  RevokeApiKeyRequestSchema,
  RevokeApiKeyResponseSchema,
} from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { ApiKey } from "../../domain/account.js";
import { createApiKey } from "../../flows/api-keys/create-api-key.js";
import { listApiKeys } from "../../flows/api-keys/list-api-keys.js";
import { revokeApiKey } from "../../flows/api-keys/revoke-api-key.js";
import { toProto } from "../../handlers/account/api-keys.js";
import type { Command } from "../command.js";
import { list, text } from "../options.js";
import { moreLine, PAGE_OPTIONS, PAGE_SYNOPSIS, pageFields, readPages } from "../paging.js";
import { checkedRequest, wireJson } from "../request.js";
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
      const { organizationId, project } = await projectOption(ctx, values);
      const deps = await ctx.deps();
      const { apiKey, key } = await createApiKey(
        deps,
        organizationId,
        { projectId: project.id, label: req.label, scopes: req.scopes, expiresAt: req.expiresAt, kind: req.kind },
        ctx.origin,
      );
      return {
        json: wireJson(CreateApiKeyResponseSchema, { ...toProto(apiKey), key }),
        // The key alone on the first line, so `| head -1` takes it; it is shown this once.
        text: `${key}\ncreated ${keyLine(apiKey)}\nthe key above is shown only now: store it as a secret`,
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
      const { organizationId, projectId } = await organizationOrProject(ctx, values);
      const deps = await ctx.deps();
      const page = await readPages(values, request, (p) => listApiKeys(deps, organizationId, { projectId, ...p }));
      return {
        json: wireJson(ListApiKeysResponseSchema, {
          data: page.data.map(toProto),
          nextCursor: page.nextCursor,
          hasMore: page.hasMore,
        }),
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
      const deps = await ctx.deps();
      const answer = await revokeApiKey(deps, organizationId, req.id, ctx.origin);
      return {
        json: wireJson(RevokeApiKeyResponseSchema, answer),
        text: answer.revoked ? `revoked ${answer.id}` : `${answer.id} was already revoked`,
      };
    },
  },
];

function keyLine(k: ApiKey): string {
  const expires = k.expiresAt ? `expires ${k.expiresAt.toISOString()}` : "never expires";
  return `${k.id}  ${k.keyHint}…  ${k.kind}  ${k.scopes.join(",")}  ${JSON.stringify(k.label)}  project ${k.projectId}  ${expires}`;
}
