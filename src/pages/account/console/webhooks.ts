// Webhook endpoints of the picked project (admins only, as in the API: a developer reads the
// server's ROLE_REQUIRED words): the list, one form to create an endpoint (its signing secret
// shown once) or edit one (webhook-form.ts), and each endpoint's actions (webhook-actions.ts):
// a test event, its delivery log, a new secret, deletion.
import type { WebhookEndpoint } from "../../../../gen/gatehouse/account/v1/webhooks_pb.js";
import { h } from "../../shared/dom.js";
import { explain } from "../../shared/errors.js";
import { t } from "../../shared/words.js";
import type { ConsoleContext } from "./shell.js";
import { note, shownOnce, table, when } from "./ui.js";
import { endpointActions } from "./webhook-actions.js";
import { showDeliveries } from "./webhook-deliveries.js";
import { endpointForm } from "./webhook-form.js";

export async function showWebhooks(ctx: ConsoleContext): Promise<void> {
  const projectId = ctx.route.project;
  const list = h("div", {});
  const shown = h("div", {});
  const log = h("div", {});
  const editor = h("div", {});
  const status = note("");
  const alert = h("p", { role: "alert", class: "error" });
  const showSecret = (title: string, secret: string, after?: string) => {
    shown.replaceChildren(shownOnce(title, secret));
    if (after) shown.querySelector(".warning")?.after(h("p", {}, after));
    shown.querySelector<HTMLInputElement>("input")?.focus();
  };
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
              stateWords(endpoint),
              when(endpoint.createdAt),
              endpointActions(ctx, endpoint, {
                edit: () => edit(endpoint),
                tested: () => (status.textContent = t("console.webhooks.testSent", { url: endpoint.url })),
                failed: (error) => (alert.textContent = explain(error).message),
                log: () => showDeliveries(ctx, endpoint, log),
                rotated: async (secret, previousUntil) => {
                  // Drawn again, the row loses the question it asked.
                  await reload();
                  showSecret(
                    t("console.webhooks.newSecretOf", { url: endpoint.url }),
                    secret,
                    t("console.webhooks.previousUntil", { time: previousUntil }),
                  );
                },
                deleted: async () => {
                  await reload();
                  log.replaceChildren();
                  edit();
                  status.textContent = t("console.webhooks.deleted", { url: endpoint.url });
                },
              }),
            ]),
          ),
    );
  };
  const edit = (endpoint?: WebhookEndpoint) => {
    editor.replaceChildren(
      endpointForm(ctx, projectId, endpoint, {
        created: async (url, secret) => {
          await reload();
          edit();
          showSecret(t("console.webhooks.secretOf", { url }), secret);
        },
        saved: async (url) => {
          await reload();
          edit();
          status.textContent = t("console.webhooks.saved", { url });
        },
        cancelled: () => edit(),
      }),
    );
    if (endpoint) editor.querySelector("input")?.focus();
  };
  await reload();
  edit();
  ctx.body.append(status, alert, list, shown, log, editor);
}

function stateWords(endpoint: WebhookEndpoint): string {
  if (endpoint.enabled) return t("console.webhooks.enabled");
  return endpoint.disabledReason === "failing" ? t("console.webhooks.disabledFailing") : t("console.webhooks.disabled");
}
