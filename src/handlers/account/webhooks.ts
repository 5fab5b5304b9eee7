import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { DeliveryStatus, WebhookDelivery, WebhookEndpoint } from "../../domain/webhooks.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { HandlerDeps } from "../deps.js";
import { createWebhookEndpoint } from "../../flows/webhooks/create-webhook-endpoint.js";
import { deleteWebhookEndpoint } from "../../flows/webhooks/delete-webhook-endpoint.js";
import { listWebhookDeliveries, replayWebhookDelivery, sendTestWebhook } from "../../flows/webhooks/deliveries.js";
import { listWebhookEndpoints } from "../../flows/webhooks/list-webhook-endpoints.js";
import { rotateWebhookSecret } from "../../flows/webhooks/rotate-webhook-secret.js";
import { updateWebhookEndpoint } from "../../flows/webhooks/update-webhook-endpoint.js";
import { organizationOf } from "./organization-of.js";

/** The webhook RPCs. The secret goes out twice only: at creation and at rotation. */
export function webhooksHandlers(deps: HandlerDeps) {
  const wake = () => deps.webhooks.kick();
  return {
    async createWebhookEndpoint(req, ctx) {
      const { endpoint, secret } = await createWebhookEndpoint(
        deps,
        organizationOf(ctx),
        { projectId: req.projectId, url: req.url, eventTypes: req.eventTypes, enabled: req.enabled ?? true },
        auditOriginOf(ctx.values),
      );
      return { ...endpointProto(endpoint), secret };
    },

    async listWebhookEndpoints(req, ctx) {
      const page = await listWebhookEndpoints(deps, organizationOf(ctx), {
        projectId: req.projectId,
        limit: req.limit,
        cursor: req.cursor,
      });
      return { data: page.data.map(endpointProto), nextCursor: page.nextCursor, hasMore: page.hasMore };
    },

    async updateWebhookEndpoint(req, ctx) {
      const endpoint = await updateWebhookEndpoint(
        deps,
        organizationOf(ctx),
        { id: req.id, url: req.url, eventTypes: req.eventTypes, enabled: req.enabled },
        auditOriginOf(ctx.values),
      );
      return endpointProto(endpoint);
    },

    async deleteWebhookEndpoint(req, ctx) {
      return deleteWebhookEndpoint(deps, organizationOf(ctx), req.id, auditOriginOf(ctx.values));
    },

    async rotateWebhookSecret(req, ctx) {
      const rotated = await rotateWebhookSecret(deps, organizationOf(ctx), req.id, auditOriginOf(ctx.values));
      return {
        id: rotated.id,
        secret: rotated.secret,
        previousSecretExpiresAt: timestampFromDate(rotated.previousSecretExpiresAt),
      };
    },

    async sendTestWebhook(req, ctx) {
      return { delivery: deliveryProto(await sendTestWebhook(deps, organizationOf(ctx), req.id, wake)) };
    },

    async listWebhookDeliveries(req, ctx) {
      const page = await listWebhookDeliveries(deps, organizationOf(ctx), {
        id: req.id,
        limit: req.limit,
        cursor: req.cursor,
        status: req.status === "" ? undefined : (req.status as DeliveryStatus),
      });
      return { data: page.data.map(deliveryProto), nextCursor: page.nextCursor, hasMore: page.hasMore };
    },

    async replayWebhookDelivery(req, ctx) {
      return { delivery: deliveryProto(await replayWebhookDelivery(deps, organizationOf(ctx), req.id, wake)) };
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}

// Field by field, so nothing but these ever reaches the wire (the CLI prints the same).
export function endpointProto(e: WebhookEndpoint) {
  return {
    id: e.id,
    projectId: e.projectId,
    url: e.url,
    eventTypes: e.eventTypes,
    enabled: e.enabled,
    disabledReason: e.disabledReason ?? "",
    createdAt: timestampFromDate(e.createdAt),
    updatedAt: timestampFromDate(e.updatedAt),
    previousSecretExpiresAt: e.previousSecretExpiresAt ? timestampFromDate(e.previousSecretExpiresAt) : undefined,
  };
}

export function deliveryProto(d: WebhookDelivery) {
  return {
    id: d.id,
    webhookId: d.endpointId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts.map((a) => ({
      attemptedAt: timestampFromDate(a.at),
      statusCode: a.status,
      latencyMs: a.latencyMs,
      error: a.error,
      responseExcerpt: a.excerpt,
    })),
    nextAttemptAt: d.nextAttemptAt ? timestampFromDate(d.nextAttemptAt) : undefined,
    createdAt: timestampFromDate(d.createdAt),
  };
}
