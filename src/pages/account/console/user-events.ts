// The audit events about one user (the Account interface's ListAuditEvents with user_id),
// newest first, a page at a time: what happened to the account and who did it.
import type { AuditEvent } from "../../../../gen/gatehouse/account/v1/audit_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { paged, part, table, when } from "./ui.js";
import type { UserPage } from "./user-detail.js";

const PAGE = 10;

export async function userEvents(page: UserPage): Promise<Node[]> {
  const list = paged({
    read: (cursor) =>
      page.ctx.client.listAuditEvents({ projectId: page.ctx.route.project, userId: page.user.id, limit: PAGE, cursor }),
    draw: (answer) => (answer.data.length === 0 ? h("p", {}, t("console.user.noEvents")) : events(answer.data)),
    live: true,
  });
  await list.first();
  return [part("user-events", t("console.user.events"), list.element)];
}

function events(data: AuditEvent[]): HTMLElement {
  return table(
    t("console.user.events"),
    [t("console.audit.when"), t("console.audit.type"), t("console.audit.actor"), t("console.audit.ip")],
    data.map((event) => [
      when(event.createdAt),
      h("code", {}, event.type),
      event.actorId ? `${event.actorType} ${event.actorId}` : event.actorType,
      event.ipAddress,
    ]),
  );
}
