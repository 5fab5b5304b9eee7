import type { ServiceImpl } from "@connectrpc/connect";
import type { JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { AuditEvent } from "../../domain/audit.js";
import { listAuditEvents } from "../../flows/audit/list-audit-events.js";
import type { FlowDeps } from "../../flows/deps.js";
import { organizationOf } from "./organization-of.js";

/** ListAuditEvents. */
export function auditEventsHandlers(deps: FlowDeps) {
  return {
    async listAuditEvents(req, ctx) {
      const page = await listAuditEvents(deps, organizationOf(ctx), {
        projectId: req.projectId,
        userId: req.userId,
        types: req.type,
        from: req.from,
        to: req.to,
        limit: req.limit,
        cursor: req.cursor,
      });
      return { data: page.data.map(toProto), nextCursor: page.nextCursor, hasMore: page.hasMore };
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}

// Field by field: the organization id is the caller's own and never goes out.
export function toProto(e: AuditEvent) {
  return {
    id: e.id,
    type: e.type,
    createdAt: timestampFromDate(e.createdAt),
    projectId: e.projectId ?? "",
    userId: e.userId ?? "",
    actorType: e.actorType,
    actorId: e.actorId,
    targetId: e.targetId ?? "",
    ipAddress: e.ipAddress ?? "",
    userAgent: e.userAgent ?? "",
    reason: e.reason ?? "",
    emailHash: e.emailHash ?? "",
    details: e.details as JsonObject,
  };
}
