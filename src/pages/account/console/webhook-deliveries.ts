// One webhook endpoint's delivery log: each event's type, state, attempts and last answer,
// newest first, with Replay (a new delivery of the same event) and a page at a time.
import type { WebhookDelivery, WebhookEndpoint } from "../../../../gen/gatehouse/account/v1/webhooks_pb.js";
import { h } from "../../shared/dom.js";
import { explain } from "../../shared/errors.js";
import { t } from "../../shared/words.js";
import type { ConsoleContext } from "./shell.js";
import { failure, note, smallButton, table, when } from "./ui.js";

export async function showDeliveries(ctx: ConsoleContext, endpoint: WebhookEndpoint, into: HTMLElement): Promise<void> {
  const status = note("");
  const alert = h("p", { role: "alert", class: "error" });
  const title = h(
    "h2",
    { id: "deliveries-title", tabindex: "-1" },
    t("console.webhooks.deliveriesOf", { url: endpoint.url }),
  );
  const rows = h("div", {});
  const load = async (cursor: string) => {
    const answer = await ctx.client.listWebhookDeliveries({ id: endpoint.id, limit: 20, cursor });
    rows.replaceChildren(
      answer.data.length === 0
        ? h("p", {}, t("console.webhooks.noDeliveries"))
        : table(
            t("console.webhooks.deliveries"),
            [
              t("console.audit.when"),
              t("console.audit.type"),
              t("console.webhooks.state"),
              t("console.webhooks.attempts"),
              t("console.webhooks.lastAnswer"),
              t("console.webhooks.nextAttempt"),
              "",
            ],
            answer.data.map((delivery) => [
              when(delivery.createdAt),
              h("code", {}, delivery.eventType),
              delivery.status,
              String(delivery.attempts.length),
              lastAnswer(delivery),
              when(delivery.nextAttemptAt),
              replay(
                ctx,
                delivery,
                async () => {
                  await load("");
                  status.textContent = t("console.webhooks.replayed", { type: delivery.eventType });
                },
                (error) => (alert.textContent = explain(error).message),
              ),
            ]),
          ),
    );
    if (answer.hasMore) {
      rows.append(smallButton(t("console.next"), () => void load(answer.nextCursor).catch(show)));
    }
  };
  const show = (error: unknown) => rows.replaceChildren(failure(error));
  into.replaceChildren(h("section", { "aria-labelledby": title.id }, title, status, alert, rows));
  title.focus();
  await load("").catch(show);
}

/**
 * What the last attempt got: the server's reason when it failed (`answered HTTP 500`, `timed
 * out after 10 s`, …), else the receiver's status; nothing before the first attempt. Shown as
 * text: the reason may quote the receiver.
 */
function lastAnswer(delivery: WebhookDelivery): string {
  const last = delivery.attempts[delivery.attempts.length - 1];
  if (!last) return "";
  if (last.error) return last.error;
  return last.statusCode ? t("console.webhooks.httpStatus", { status: last.statusCode }) : "";
}

function replay(
  ctx: ConsoleContext,
  delivery: WebhookDelivery,
  done: () => Promise<void>,
  failed: (error: unknown) => void,
): HTMLElement {
  const button = smallButton(t("console.webhooks.replay"), () => {
    button.disabled = true;
    void ctx.client
      .replayWebhookDelivery({ id: delivery.id })
      .then(done)
      .catch((error: unknown) => {
        button.disabled = false;
        failed(error);
      });
  });
  button.setAttribute("aria-label", t("console.webhooks.replayNamed", { type: delivery.eventType, id: delivery.id }));
  return button;
}
