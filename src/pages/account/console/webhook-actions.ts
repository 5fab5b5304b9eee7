// The buttons of one webhook endpoint's row, each named after the endpoint for a screen
// reader: Edit, Send test, Deliveries, Rotate secret and Delete (the last two ask in place).
import type { WebhookEndpoint } from "../../../../gen/gatehouse/account/v1/webhooks_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import type { ConsoleContext } from "./shell.js";
import { confirmInPlace, smallButton, when } from "./ui.js";

export interface EndpointEvents {
  edit: () => void;
  tested: () => void;
  failed: (error: unknown) => void;
  log: () => Promise<void>;
  /** The new secret, and when the previous one stops signing (in words). */
  rotated: (secret: string, previousUntil: string) => Promise<void>;
  deleted: () => Promise<void>;
}

export function endpointActions(ctx: ConsoleContext, endpoint: WebhookEndpoint, on: EndpointEvents): HTMLElement {
  const named = (button: HTMLButtonElement, key: string) => {
    button.setAttribute("aria-label", t(key, { url: endpoint.url }));
    return button;
  };
  const edit = named(smallButton(t("console.edit"), on.edit), "console.webhooks.editNamed");
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
  const rotate = named(
    smallButton(t("console.webhooks.rotate"), () =>
      confirmInPlace(
        rotate,
        t("console.webhooks.rotateQuestion", { url: endpoint.url }),
        t("console.webhooks.rotate"),
        async () => {
          const answer = await ctx.client.rotateWebhookSecret({ id: endpoint.id });
          await on.rotated(answer.secret, when(answer.previousSecretExpiresAt));
        },
      ),
    ),
    "console.webhooks.rotateNamed",
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
  return h("div", { class: "row-actions" }, edit, test, deliveries, rotate, remove);
}
