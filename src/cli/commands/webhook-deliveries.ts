import {
  ListWebhookDeliveriesRequestSchema,
  ListWebhookDeliveriesResponseSchema,
  ReplayWebhookDeliveryRequestSchema,
  ReplayWebhookDeliveryResponseSchema,
  SendTestWebhookRequestSchema,
  SendTestWebhookResponseSchema,
  type WebhookDelivery,
} from "../../../gen/gatehouse/account/v1/webhooks_pb.js";
import { DomainError } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import type { Command } from "../command.js";
import type { CliContext } from "../context.js";
import { text, type Values } from "../options.js";
import { moreLine, PAGE_OPTIONS, PAGE_SYNOPSIS, pageFields, pageJson, readPages } from "../paging.js";
import { checkedRequest, iso } from "../request.js";
import { organizationOption } from "../scope.js";
import { endpointOrganization, required } from "./webhooks.js";

// A webhook endpoint's delivery log (API.md section 7): a test event, the log, a replay. A
// delivery is made by a running server's worker (within WEBHOOK_POLL_MS), whichever process
// queued it. A command naming a delivery (`--id whd_…`) may leave `--org` out.

export const webhookDeliveryCommands: Command[] = [
  {
    name: "webhook test",
    synopsis: "--id WEBHOOK_ID [--org ORG_ID]",
    options: { org: { type: "string" }, id: { type: "string" } },
    async run(ctx, values) {
      required(values, "id", "the webhook endpoint's id (`gatehouse webhook list --project ID` shows them)");
      const req = checkedRequest(SendTestWebhookRequestSchema, { id: text(values, "id") ?? "" });
      const organizationId = await endpointOrganization(ctx, values, req.id);
      const answer = await (await ctx.account(organizationId)).sendTestWebhook(req);
      const delivery = answered(answer.delivery);
      return {
        json: ctx.restJson(SendTestWebhookResponseSchema, answer),
        text:
          `queued ${delivery.eventType} delivery ${delivery.id} (event ${delivery.eventId}) to webhook ${req.id}; ` +
          `\`gatehouse webhook deliveries --id ${req.id}\` shows how it went`,
      };
    },
  },
  {
    name: "webhook deliveries",
    synopsis: `--id WEBHOOK_ID [--status pending|succeeded|failed] [--org ORG_ID] ${PAGE_SYNOPSIS}`,
    options: { org: { type: "string" }, id: { type: "string" }, status: { type: "string" }, ...PAGE_OPTIONS },
    async run(ctx, values) {
      required(values, "id", "the webhook endpoint's id (`gatehouse webhook list --project ID` shows them)");
      const req = checkedRequest(ListWebhookDeliveriesRequestSchema, {
        id: text(values, "id") ?? "",
        status: text(values, "status") ?? "",
        ...pageFields(values),
      });
      const organizationId = await endpointOrganization(ctx, values, req.id);
      const account = await ctx.account(organizationId);
      const page = await readPages(values, req, (p) => account.listWebhookDeliveries({ ...req, ...p }));
      return {
        json: pageJson(ctx, ListWebhookDeliveriesResponseSchema, page),
        text: page.data.length === 0 ? "no deliveries" : [deliveryTable(page.data), ...moreLine(page)].join("\n"),
      };
    },
  },
  {
    name: "webhook replay",
    synopsis: "--id DELIVERY_ID [--org ORG_ID]",
    options: { org: { type: "string" }, id: { type: "string" } },
    async run(ctx, values) {
      required(values, "id", "the delivery's id (`gatehouse webhook deliveries --id WEBHOOK_ID` shows them)");
      const req = checkedRequest(ReplayWebhookDeliveryRequestSchema, { id: text(values, "id") ?? "" });
      const organizationId = await deliveryOrganization(ctx, values, req.id);
      const answer = await (await ctx.account(organizationId)).replayWebhookDelivery(req);
      const delivery = answered(answer.delivery);
      return {
        json: ctx.restJson(ReplayWebhookDeliveryResponseSchema, answer),
        text: `delivery ${delivery.id} (${delivery.eventType}, event ${delivery.eventId}) is ${delivery.status} again: a running server sends it now, with the same webhook-id and body`,
      };
    },
  },
];

/** `--org`, or the organization of the delivery's endpoint; an unknown delivery is WEBHOOK_DELIVERY_NOT_FOUND. */
async function deliveryOrganization(ctx: CliContext, values: Values, id: string): Promise<string> {
  if (text(values, "org") !== undefined) return organizationOption(ctx, values);
  const notFound = new DomainError("WEBHOOK_DELIVERY_NOT_FOUND", "no such webhook delivery in this organization");
  const organizationId = isIdOf("whd", id)
    ? await (await ctx.deps()).db.repos.webhookDeliveries.organizationOf(id)
    : null;
  if (organizationId === null) throw notFound;
  return organizationId;
}

/** The delivery SendTestWebhook and ReplayWebhookDelivery always answer with. */
function answered(delivery: WebhookDelivery | undefined): WebhookDelivery {
  if (!delivery) throw new Error("the RPC answered without its delivery");
  return delivery;
}

/** The delivery log for people: one row per event, its last attempt's answer or error. */
function deliveryTable(deliveries: WebhookDelivery[]): string {
  const rows = [
    ["TIME", "EVENT", "STATUS", "ATTEMPTS", "LAST RESULT", "DELIVERY"],
    ...deliveries.map((d) => [iso(d.createdAt), d.eventType, d.status, String(d.attempts.length), lastResult(d), d.id]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function lastResult(d: WebhookDelivery): string {
  const last = d.attempts.at(-1);
  if (!last) return d.nextAttemptAt ? `not sent yet (due ${iso(d.nextAttemptAt)})` : "not sent";
  const answer = last.statusCode === 0 ? "no answer" : `HTTP ${last.statusCode}`;
  // A failure by status alone says no more than the status (`answered HTTP 500`).
  const redundant = [`answered HTTP ${last.statusCode}`, `status ${last.statusCode}`].includes(last.error);
  return last.error && !redundant ? `${answer}: ${last.error}` : answer;
}
