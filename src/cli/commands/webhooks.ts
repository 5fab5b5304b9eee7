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
  type WebhookEndpoint,
} from "../../../gen/gatehouse/account/v1/webhooks_pb.js";
import { isIdOf } from "../../domain/ids.js";
import { webhookNotFound } from "../../flows/webhooks/endpoint-rules.js";
import type { Command } from "../command.js";
import type { CliContext } from "../context.js";
import { usageError } from "../errors.js";
import { flag, list, text, type Values } from "../options.js";
import { moreLine, PAGE_OPTIONS, PAGE_SYNOPSIS, pageFields, pageJson, readPages } from "../paging.js";
import { checkedRequest, iso } from "../request.js";
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
      const { organizationId } = await projectOption(ctx, values);
      const created = await (await ctx.account(organizationId)).createWebhookEndpoint(req);
      return {
        json: ctx.restJson(CreateWebhookEndpointResponseSchema, created),
        // The secret alone on the first line, so `| head -1` takes it; it is shown this once.
        text: `${created.secret}\ncreated webhook ${endpointLine(created)}\n${SECRET_ONCE}`,
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
      const { organizationId } = await projectOption(ctx, values);
      const account = await ctx.account(organizationId);
      const page = await readPages(values, request, (p) => account.listWebhookEndpoints({ ...request, ...p }));
      return {
        json: pageJson(ctx, ListWebhookEndpointsResponseSchema, page),
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
      const endpoint = await (await ctx.account(organizationId)).updateWebhookEndpoint(req);
      return {
        json: ctx.restJson(UpdateWebhookEndpointResponseSchema, endpoint),
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
      const answer = await (await ctx.account(organizationId)).deleteWebhookEndpoint(req);
      return {
        json: ctx.restJson(DeleteWebhookEndpointResponseSchema, answer),
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
      const rotated = await (await ctx.account(organizationId)).rotateWebhookSecret(req);
      const until = iso(rotated.previousSecretExpiresAt);
      return {
        json: ctx.restJson(RotateWebhookSecretResponseSchema, rotated),
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
  const organizationId = isIdOf("wh", id)
    ? await (await ctx.deps()).db.repos.webhookEndpoints.organizationOf(id)
    : null;
  if (organizationId === null) throw webhookNotFound();
  return organizationId;
}

function endpointLine(e: Omit<WebhookEndpoint, "$typeName">): string {
  const state = e.enabled ? "enabled" : `disabled (${e.disabledReason || "admin"})`;
  return `${e.id}  ${e.url}  events ${e.eventTypes.join(",")}  ${state}  project ${e.projectId}  created ${iso(e.createdAt)}`;
}
