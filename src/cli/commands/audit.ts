import {
  ListAuditEventsRequestSchema,
  ListAuditEventsResponseSchema,
} from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { AuditEvent } from "../../domain/audit.js";
import { listAuditEvents } from "../../flows/audit/list-audit-events.js";
import { toProto } from "../../handlers/account/audit-events.js";
import type { Command } from "../command.js";
import { list, text } from "../options.js";
import { moreLine, PAGE_OPTIONS, PAGE_SYNOPSIS, pageFields, readPages } from "../paging.js";
import { checkedRequest, wireJson } from "../request.js";
import { organizationOrProject } from "../scope.js";

export const auditCommands: Command[] = [
  {
    name: "audit list",
    synopsis: `--org ORG_ID | --project PROJECT_ID [--user USER_ID] [--type TYPE]... [--from RFC3339] [--to RFC3339] ${PAGE_SYNOPSIS}`,
    options: {
      org: { type: "string" },
      project: { type: "string" },
      user: { type: "string" },
      type: { type: "string", multiple: true },
      from: { type: "string" },
      to: { type: "string" },
      ...PAGE_OPTIONS,
    },
    async run(ctx, values) {
      const req = checkedRequest(ListAuditEventsRequestSchema, {
        projectId: text(values, "project") ?? "",
        userId: text(values, "user") ?? "",
        // As on REST, `--type a,b` is two types.
        type: list(values, "type").flatMap((t) => t.split(",")),
        from: text(values, "from") ?? "",
        to: text(values, "to") ?? "",
        ...pageFields(values),
      });
      const { organizationId, projectId } = await organizationOrProject(ctx, values);
      const deps = await ctx.deps();
      const filter = { projectId, userId: req.userId, types: req.type, from: req.from, to: req.to };
      const page = await readPages(values, req, (p) => listAuditEvents(deps, organizationId, { ...filter, ...p }));
      return {
        json: wireJson(ListAuditEventsResponseSchema, {
          data: page.data.map(toProto),
          nextCursor: page.nextCursor,
          hasMore: page.hasMore,
        }),
        text: [...page.data.map(eventLine), ...moreLine(page)].join("\n") || "no audit events",
      };
    },
  },
];

function eventLine(e: AuditEvent): string {
  const actor = e.actorId ? `${e.actorType} ${e.actorId}` : e.actorType;
  const about = [
    e.projectId && `project ${e.projectId}`,
    e.userId && `user ${e.userId}`,
    e.targetId && e.targetId !== e.userId && `target ${e.targetId}`,
    e.reason,
  ]
    .filter(Boolean)
    .join("  ");
  return `${e.createdAt.toISOString()}  ${e.type}  by ${actor}${about ? `  ${about}` : ""}`;
}
