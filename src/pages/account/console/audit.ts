// The audit log: ListAuditEvents with its filters (project, type, the user it is about, a time
// range), newest first, a page at a time.
import type { AuditEvent } from "../../../../gen/gatehouse/account/v1/audit_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import type { ConsoleContext } from "./shell.js";
import { paged, table, when } from "./ui.js";

// The types ListAuditEvents filters on (its request's `in` rule), grouped as the docs group them.
const TYPES = [
  "user.signup",
  "user.login.succeeded",
  "user.login.failed",
  "token.refreshed",
  "token.revoked",
  "session.revoked",
  "user.password.changed",
  "user.password.reset",
  "user.mfa.enrolled",
  "user.updated",
  "user.deleted",
  "member.login.succeeded",
  "member.login.failed",
  "member.invited",
  "member.removed",
  "member.role_changed",
  "api_key.created",
  "api_key.revoked",
  "sso_connection.created",
  "sso_connection.updated",
  "sso_connection.deleted",
  "project.created",
  "project.updated",
  "project.deleted",
  "webhook.created",
  "oauth_client.created",
  "rate_limit.exceeded",
];

export function showAudit(ctx: ConsoleContext): Promise<void> {
  const form = new ConsoleForm("audit-filters", t("console.audit.apply"));
  form.add(
    form.select("project_id", t("console.project"), [
      ["", t("console.allProjects")],
      ...ctx.projects.map((p): [string, string] => [p.id, p.name]),
    ]),
    form.select("type", t("console.audit.type"), [
      ["", t("console.audit.anyType")],
      ...TYPES.map((type): [string, string] => [type, type]),
    ]),
    form.text("user_id", t("console.audit.user"), { hint: t("console.audit.userHint") }),
    form.text("from", t("console.audit.from"), { type: "datetime-local" }),
    form.text("to", t("console.audit.to"), { type: "datetime-local" }),
  );
  const list = paged({
    read: (cursor) =>
      ctx.client.listAuditEvents({
        projectId: form.value("project_id"),
        type: form.value("type") ? [form.value("type")] : [],
        userId: form.value("user_id"),
        from: instant(form.value("from")),
        to: instant(form.value("to")),
        limit: 25,
        cursor,
      }),
    draw: (answer) => (answer.data.length === 0 ? h("p", {}, t("console.audit.none")) : events(answer.data)),
    live: true,
  });
  form.onSubmit(() => list.first());
  ctx.body.append(form.element, list.element);
  return list.first();
}

/** A datetime-local value (the browser's time zone) as RFC 3339, or "" for none. */
function instant(local: string): string {
  return local ? new Date(local).toISOString() : "";
}

function events(data: AuditEvent[]): HTMLElement {
  return table(
    t("console.nav.audit"),
    [
      t("console.audit.when"),
      t("console.audit.type"),
      t("console.audit.actor"),
      t("console.audit.user"),
      t("console.audit.ip"),
    ],
    data.map((event) => [
      when(event.createdAt),
      h("code", {}, event.type),
      event.actorId ? `${event.actorType} ${event.actorId}` : event.actorType,
      event.userId,
      event.ipAddress,
    ]),
  );
}
