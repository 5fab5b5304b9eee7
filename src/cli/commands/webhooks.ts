import { endpointProto } from "../../handlers/account/webhooks.js";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  CreateWebhookEndpointRequestSchema,
  CreateWebhookEndpointResponseSchema,
  DeleteWebhookEndpointRequestSchema,
  DeleteWebhookEndpointResponseSchema,
  ListWebhookEndpointsRequestSchema,
  ListWebhookEndpointsResponseSchema,
  RotateWebhookSecretRequestSchema,
  RotateWebhookSecretResponseSchema,
  UpdateWebhookEndpointRequestSchema,
  UpdateWebhookEndpointResponseSchema,
} from "../../../gen/gatehouse/account/v1/account_pb.js";
import { isIdOf } from "../../domain/ids.js";
import type { WebhookEndpoint } from "../../domain/webhooks.js";
import { createWebhookEndpoint } from "../../flows/webhooks/create-webhook-endpoint.js";
import { deleteWebhookEndpoint } from "../../flows/webhooks/delete-webhook-endpoint.js";
import { webhookNotFound } from "../../flows/webhooks/endpoint-rules.js";
import { listWebhookEndpoints } from "../../flows/webhooks/list-webhook-endpoints.js";
import { rotateWebhookSecret } from "../../flows/webhooks/rotate-webhook-secret.js";
import { updateWebhookEndpoint } from "../../flows/webhooks/update-webhook-endpoint.js";
import { WebhookEndpointEntity } from "../../store/entities/webhook-endpoint.entity.js";
import type { Command } from "../command.js";
import type { CliContext } from "../context.js";
import { usageError } from "../errors.js";
import { flag, list, text, type Values } from "../options.js";
import { moreLine, PAGE_OPTIONS, PAGE_SYNOPSIS, pageFields, readPages } from "../paging.js";
import { checkedRequest, wireJson } from "../request.js";
import { organizationOption, projectOption } from "../scope.js";

// Webhook endpoints (API.md section 7); their delivery log is in webhook-deliveries.ts. A
// command naming an endpoint (`--id wh_…`) may leave `--org` out, as one naming a project may:
// the endpoint names its organization.

const SECRET_ONCE = "the secret above is shown only now: give it to the receiver, which verifies signatures with it";

export const webhookCommands: Command[] = [
  {
    name: "webhook create",
    synopsis: "--project PROJECT_ID --url URL --event TYPE... [--disabled] [--org ORG_ID]",
    options: {
      org: { type: "string" },
      project: { type: "string" },
      url: { type: "string" },
      event: { type: "string", multiple: true },
      disabled: { type: "boolean" },
    },
    async run(ctx, values) {
      required(values, "project", "the project's id (`gatehouse project list --org ID` shows them)");
      required(values, "url", "where events are POSTed (https)");
      if (list(values, "event").length === 0)
        throw usageError("--event is required: an event type to send (repeat it for several), or '*' for all");
      const req = checkedRequest(CreateWebhookEndpointRequestSchema, {
        projectId: text(values, "project") ?? "",
        url: text(values, "url") ?? "",
        eventTypes: list(values, "event"),
        enabled: flag(values, "disabled") ? false : undefined,
      });
      const { organizationId, project } = await projectOption(ctx, values);
      const deps = await ctx.deps();
      const { endpoint, secret } = await createWebhookEndpoint(
        deps,
        organizationId,
        { projectId: project.id, url: req.url, eventTypes: req.eventTypes, enabled: req.enabled ?? true },
        ctx.origin,
      );
      return {
        json: wireJson(CreateWebhookEndpointResponseSchema, { ...endpointProto(endpoint), secret }),
        // The secret alone on the first line, so `| head -1` takes it; it is shown this once.
        text: `${secret}\ncreated webhook ${endpointLine(endpoint)}\n${SECRET_ONCE}`,
      };
    },
  },
  {
    name: "webhook list",
    synopsis: `--project PROJECT_ID [--org ORG_ID] ${PAGE_SYNOPSIS}`,
    options: { org: { type: "string" }, project: { type: "string" }, ...PAGE_OPTIONS },
    async run(ctx, values) {
      required(values, "project", "the project's id (`gatehouse project list --org ID` shows them)");
      const request = checkedRequest(ListWebhookEndpointsRequestSchema, {
        projectId: text(values, "project") ?? "",
        ...pageFields(values),
      });
      const { organizationId, project } = await projectOption(ctx, values);
      const deps = await ctx.deps();
      const page = await readPages(values, request, (p) =>
        listWebhookEndpoints(deps, organizationId, { projectId: project.id, ...p }),
      );
      return {
        json: wireJson(ListWebhookEndpointsResponseSchema, {
          data: page.data.map(endpointProto),
          nextCursor: page.nextCursor,
          hasMore: page.hasMore,
        }),
        text: [...page.data.map(endpointLine), ...moreLine(page)].join("\n") || "no webhook endpoints",
      };
    },
  },
  {
    name: "webhook update",
    synopsis: "--id WEBHOOK_ID [--url URL] [--event TYPE...] [--enable | --disable] [--org ORG_ID]",
    options: {
      org: { type: "string" },
      id: { type: "string" },
      url: { type: "string" },
      event: { type: "string", multiple: true },
      enable: { type: "boolean" },
      disable: { type: "boolean" },
    },
    async run(ctx, values) {
      required(values, "id", "the webhook endpoint's id (`gatehouse webhook list --project ID` shows them)");
      if (flag(values, "enable") && flag(values, "disable"))
        throw usageError("--enable and --disable contradict each other: give one");
      const changes = ["url", "event", "enable", "disable"].filter((name) => values[name] !== undefined);
      if (changes.length === 0) throw usageError("nothing to change: give --url, --event, --enable or --disable");
      const req = checkedRequest(UpdateWebhookEndpointRequestSchema, {
        id: text(values, "id") ?? "",
        url: text(values, "url"),
        eventTypes: list(values, "event"),
        enabled: flag(values, "enable") ? true : flag(values, "disable") ? false : undefined,
      });
      const organizationId = await endpointOrganization(ctx, values, req.id);
      const endpoint = await updateWebhookEndpoint(
        await ctx.deps(),
        organizationId,
        { id: req.id, url: req.url, eventTypes: req.eventTypes, enabled: req.enabled },
        ctx.origin,
      );
      return {
        json: wireJson(UpdateWebhookEndpointResponseSchema, endpointProto(endpoint)),
        text: `updated webhook ${endpointLine(endpoint)}`,
      };
    },
  },
  {
    name: "webhook delete",
    synopsis: "--id WEBHOOK_ID [--org ORG_ID]",
    options: { org: { type: "string" }, id: { type: "string" } },
    async run(ctx, values) {
      required(values, "id", "the webhook endpoint's id (`gatehouse webhook list --project ID` shows them)");
      const req = checkedRequest(DeleteWebhookEndpointRequestSchema, { id: text(values, "id") ?? "" });
      const organizationId = await endpointOrganization(ctx, values, req.id);
      const answer = await deleteWebhookEndpoint(await ctx.deps(), organizationId, req.id, ctx.origin);
      return {
        json: wireJson(DeleteWebhookEndpointResponseSchema, answer),
        text: `deleted webhook ${answer.id} with its delivery log`,
      };
    },
  },
  {
    name: "webhook rotate-secret",
    synopsis: "--id WEBHOOK_ID [--org ORG_ID]",
    options: { org: { type: "string" }, id: { type: "string" } },
    async run(ctx, values) {
      required(values, "id", "the webhook endpoint's id (`gatehouse webhook list --project ID` shows them)");
      const req = checkedRequest(RotateWebhookSecretRequestSchema, { id: text(values, "id") ?? "" });
      const organizationId = await endpointOrganization(ctx, values, req.id);
      const rotated = await rotateWebhookSecret(await ctx.deps(), organizationId, req.id, ctx.origin);
      const until = rotated.previousSecretExpiresAt.toISOString();
      return {
        json: wireJson(RotateWebhookSecretResponseSchema, {
          id: rotated.id,
          secret: rotated.secret,
          previousSecretExpiresAt: timestampFromDate(rotated.previousSecretExpiresAt),
        }),
        text: `${rotated.secret}\nnew secret for webhook ${rotated.id}; the previous one also signs until ${until}\n${SECRET_ONCE}`,
      };
    },
  },
];

/** A required option, told before the database is opened. */
export function required(values: Values, name: string, what: string): void {
  if (text(values, name) === undefined) throw usageError(`--${name} is required: ${what}`);
}

/** `--org`, or the organization of the endpoint `id` names; an unknown endpoint is WEBHOOK_NOT_FOUND. */
export async function endpointOrganization(ctx: CliContext, values: Values, id: string): Promise<string> {
  if (text(values, "org") !== undefined) return organizationOption(ctx, values);
  if (!isIdOf("wh", id)) throw webhookNotFound();
  const { manager } = (await ctx.deps()).db.dataSource;
  const row = await manager.findOne(WebhookEndpointEntity, { select: { organizationId: true }, where: { id } });
  if (!row) throw webhookNotFound();
  return row.organizationId;
}

function endpointLine(e: WebhookEndpoint): string {
  const state = e.enabled ? "enabled" : `disabled (${e.disabledReason ?? "admin"})`;
  return `${e.id}  ${e.url}  events ${e.eventTypes.join(",")}  ${state}  project ${e.projectId}  created ${e.createdAt.toISOString()}`;
}
