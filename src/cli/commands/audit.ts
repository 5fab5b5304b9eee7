import {
  ListAuditEventsRequestSchema,
  ListAuditEventsResponseSchema,
  type AuditEvent,
} from "../../../gen/gatehouse/account/v1/audit_pb.js";
import type { Command } from "../command.js";
import { list, text } from "../options.js";
import { moreLine, PAGE_OPTIONS, PAGE_SYNOPSIS, pageFields, pageJson, readPages } from "../paging.js";
import { checkedRequest, iso } from "../request.js";
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
      const { organizationId } = await organizationOrProject(ctx, values);
      const account = await ctx.account(organizationId);
      const page = await readPages(values, req, (p) => account.listAuditEvents({ ...req, ...p }));
      return {
        json: pageJson(ctx, ListAuditEventsResponseSchema, page),
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
  return `${iso(e.createdAt)}  ${e.type}  by ${actor}${about ? `  ${about}` : ""}`;
}
