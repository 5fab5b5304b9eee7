// Webhook endpoints of the picked project (admins only, as in the API: a developer reads the
// server's ROLE_REQUIRED words): the list, an endpoint made with its URL and event types (its
// signing secret shown once), a test event, deletion after a confirmation, and an endpoint's
// delivery log (webhook-deliveries.ts).
import type { WebhookEndpoint } from "../../../../gen/gatehouse/account/v1/account_pb.js";
import { h } from "../../shared/dom.js";
import { explain } from "../../shared/errors.js";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import type { ConsoleContext } from "./shell.js";
import { confirmInPlace, note, shownOnce, smallButton, table, when } from "./ui.js";
import { showDeliveries } from "./webhook-deliveries.js";

export async function showWebhooks(ctx: ConsoleContext): Promise<void> {
  const projectId = ctx.route.project;
  const list = h("div", {});
  const shown = h("div", {});
  const log = h("div", {});
  const status = note("");
  const alert = h("p", { role: "alert", class: "error" });
  const reload = async () => {
    const answer = await ctx.client.listWebhookEndpoints({ projectId, limit: 100 });
    list.replaceChildren(
      answer.data.length === 0
        ? h("p", {}, t("console.webhooks.none"))
        : table(
            t("console.nav.webhooks"),
            [
              t("console.webhooks.url"),
              t("console.webhooks.events"),
              t("console.webhooks.state"),
              t("console.created"),
              "",
            ],
            answer.data.map((endpoint) => [
              endpoint.url,
              endpoint.eventTypes.join(", "),
              endpoint.enabled ? t("console.webhooks.enabled") : t("console.webhooks.disabled"),
              when(endpoint.createdAt),
              actions(ctx, endpoint, {
                tested: () => (status.textContent = t("console.webhooks.testSent", { url: endpoint.url })),
                failed: (error) => (alert.textContent = explain(error).message),
                log: () => showDeliveries(ctx, endpoint, log),
                deleted: async () => {
                  await reload();
                  log.replaceChildren();
                  status.textContent = t("console.webhooks.deleted", { url: endpoint.url });
                },
              }),
            ]),
          ),
    );
  };
  await reload();
  const form = new ConsoleForm("create-webhook", t("console.webhooks.create"));
  form.add(
    form.text("url", t("console.webhooks.url"), { type: "url" }),
    form.text("event_types", t("console.webhooks.events"), {
      lines: true,
      value: "*",
      hint: t("console.webhooks.eventsHint"),
    }),
  );
  form.onSubmit(async () => {
    if (!form.requireFilled("url", "event_types")) return;
    const created = await ctx.client.createWebhookEndpoint({
      projectId,
      url: form.value("url"),
      eventTypes: form.list("event_types"),
    });
    form.element.reset();
    await reload();
    shown.replaceChildren(shownOnce(t("console.webhooks.secretOf", { url: created.url }), created.secret));
    shown.querySelector<HTMLInputElement>("input")?.focus();
  });
  ctx.body.append(
    status,
    alert,
    list,
    shown,
    log,
    h(
      "section",
      { "aria-labelledby": "create-webhook-title" },
      h("h2", { id: "create-webhook-title" }, t("console.webhooks.new")),
      form.element,
    ),
  );
}

function actions(
  ctx: ConsoleContext,
  endpoint: WebhookEndpoint,
  on: {
    tested: () => void;
    failed: (error: unknown) => void;
    log: () => Promise<void>;
    deleted: () => Promise<void>;
  },
): HTMLElement {
  const named = (button: HTMLButtonElement, key: string) => {
    button.setAttribute("aria-label", t(key, { url: endpoint.url }));
    return button;
  };
  const test = named(
    smallButton(t("console.webhooks.test"), () => {
      test.disabled = true;
      void ctx.client
        .sendTestWebhook({ id: endpoint.id })
        .then(on.tested, on.failed)
        .finally(() => (test.disabled = false));
    }),
    "console.webhooks.testNamed",
  );
  const deliveries = named(
    smallButton(t("console.webhooks.deliveries"), () => void on.log()),
    "console.webhooks.deliveriesNamed",
  );
  const remove = named(
    smallButton(t("console.delete"), () =>
      confirmInPlace(
        remove,
        t("console.webhooks.deleteQuestion", { url: endpoint.url }),
        t("console.delete"),
        async () => {
          await ctx.client.deleteWebhookEndpoint({ id: endpoint.id });
          await on.deleted();
        },
      ),
    ),
    "console.webhooks.deleteNamed",
  );
  return h("div", { class: "row-actions" }, test, deliveries, remove);
}
