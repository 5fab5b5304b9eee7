// One form to create a webhook endpoint (CreateWebhookEndpoint: its secret comes back once) or
// to edit one (UpdateWebhookEndpoint): URL, event types and whether events are delivered.
import type { WebhookEndpoint } from "../../../../gen/gatehouse/account/v1/webhooks_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import type { ConsoleContext } from "./shell.js";
import { cancelButton } from "./ui-edit.js";

export interface EndpointFormEvents {
  created: (url: string, secret: string) => Promise<void>;
  saved: (url: string) => Promise<void>;
  cancelled: () => void;
}

export function endpointForm(
  ctx: ConsoleContext,
  projectId: string,
  existing: WebhookEndpoint | undefined,
  on: EndpointFormEvents,
): HTMLElement {
  const form = new ConsoleForm("webhook-endpoint", existing ? t("console.save") : t("console.webhooks.create"));
  form.add(
    form.text("url", t("console.webhooks.url"), { type: "url", value: existing?.url }),
    form.text("event_types", t("console.webhooks.events"), {
      lines: true,
      value: existing ? existing.eventTypes.join("\n") : "*",
      hint: t("console.webhooks.eventsHint"),
    }),
    form.checkbox("enabled", t("console.webhooks.deliver"), existing?.enabled ?? true),
  );
  form.onSubmit(async () => {
    if (!form.requireFilled("url", "event_types")) return;
    const enabled = form.checked("enabled");
    if (existing) {
      const updated = await ctx.client.updateWebhookEndpoint({
        id: existing.id,
        url: form.value("url"),
        eventTypes: form.list("event_types"),
        // Sent only when changed: re-sending false would turn a failing streak's reason into `admin`.
        enabled: enabled === existing.enabled ? undefined : enabled,
      });
      await on.saved(updated.url);
      return;
    }
    const created = await ctx.client.createWebhookEndpoint({
      projectId,
      url: form.value("url"),
      eventTypes: form.list("event_types"),
      enabled,
    });
    await on.created(created.url, created.secret);
  });
  if (existing) form.element.querySelector(".actions")?.append(cancelButton(on.cancelled));
  const title = existing ? t("console.webhooks.editNamed", { url: existing.url }) : t("console.webhooks.new");
  return h(
    "section",
    { "aria-labelledby": "webhook-endpoint-title" },
    h("h2", { id: "webhook-endpoint-title" }, title),
    form.element,
  );
}
