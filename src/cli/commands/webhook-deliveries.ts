import { deliveryProto } from "../../handlers/account/webhooks.js";
import {
  ListWebhookDeliveriesRequestSchema,
  ListWebhookDeliveriesResponseSchema,
  ReplayWebhookDeliveryRequestSchema,
  ReplayWebhookDeliveryResponseSchema,
  SendTestWebhookRequestSchema,
  SendTestWebhookResponseSchema,
} from "../../../gen/gatehouse/account/v1/account_pb.js";
import { DomainError } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import type { DeliveryStatus, WebhookDelivery } from "../../domain/webhooks.js";
import { listWebhookDeliveries, replayWebhookDelivery, sendTestWebhook } from "../../flows/webhooks/deliveries.js";
import { WebhookDeliveryEntity } from "../../store/entities/webhook-delivery.entity.js";
import { WebhookEndpointEntity } from "../../store/entities/webhook-endpoint.entity.js";
import type { Command } from "../command.js";
import type { CliContext } from "../context.js";
import { text, type Values } from "../options.js";
import { moreLine, PAGE_OPTIONS, PAGE_SYNOPSIS, pageFields, readPages } from "../paging.js";
import { checkedRequest, wireJson } from "../request.js";
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
      const deps = await ctx.deps();
      const delivery = await sendTestWebhook(deps, organizationId, req.id, () => deps.webhooks.kick());
      return {
        json: wireJson(SendTestWebhookResponseSchema, { delivery: deliveryProto(delivery) }),
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
      const deps = await ctx.deps();
      const status = req.status === "" ? undefined : (req.status as DeliveryStatus);
      const page = await readPages(values, req, (p) =>
        listWebhookDeliveries(deps, organizationId, { id: req.id, status, ...p }),
      );
      return {
        json: wireJson(ListWebhookDeliveriesResponseSchema, {
          data: page.data.map(deliveryProto),
          nextCursor: page.nextCursor,
          hasMore: page.hasMore,
        }),
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
      const deps = await ctx.deps();
      const delivery = await replayWebhookDelivery(deps, organizationId, req.id, () => deps.webhooks.kick());
      return {
        json: wireJson(ReplayWebhookDeliveryResponseSchema, { delivery: deliveryProto(delivery) }),
        text: `delivery ${delivery.id} (${delivery.eventType}, event ${delivery.eventId}) is ${delivery.status} again: a running server sends it now, with the same webhook-id and body`,
      };
    },
  },
];

/** `--org`, or the organization of the delivery's endpoint; an unknown delivery is WEBHOOK_DELIVERY_NOT_FOUND. */
async function deliveryOrganization(ctx: CliContext, values: Values, id: string): Promise<string> {
  if (text(values, "org") !== undefined) return organizationOption(ctx, values);
  const notFound = new DomainError("WEBHOOK_DELIVERY_NOT_FOUND", "no such webhook delivery in this organization");
  if (!isIdOf("whd", id)) throw notFound;
  const { manager } = (await ctx.deps()).db.dataSource;
  const delivery = await manager.findOne(WebhookDeliveryEntity, { select: { endpointId: true }, where: { id } });
  const endpoint =
    delivery &&
    (await manager.findOne(WebhookEndpointEntity, {
      select: { organizationId: true },
      where: { id: delivery.endpointId },
    }));
  if (!endpoint) throw notFound;
  return endpoint.organizationId;
}

/** The delivery log for people: one row per event, its last attempt's answer or error. */
function deliveryTable(deliveries: WebhookDelivery[]): string {
  const rows = [
    ["TIME", "EVENT", "STATUS", "ATTEMPTS", "LAST RESULT", "DELIVERY"],
    ...deliveries.map((d) => [
      d.createdAt.toISOString(),
      d.eventType,
      d.status,
      String(d.attempts.length),
      lastResult(d),
      d.id,
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function lastResult(d: WebhookDelivery): string {
  const last = d.attempts.at(-1);
  if (!last) return d.nextAttemptAt ? `not sent yet (due ${d.nextAttemptAt.toISOString()})` : "not sent";
  const answer = last.status === 0 ? "no answer" : `HTTP ${last.status}`;
  // A failure by status alone says no more than the status (`answered HTTP 500`).
  const redundant = [`answered HTTP ${last.status}`, `status ${last.status}`].includes(last.error);
  return last.error && !redundant ? `${answer}: ${last.error}` : answer;
}
