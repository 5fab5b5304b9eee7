// The buttons of one OAuth client's row, each named after the client for a screen reader:
// Edit, Rotate secret (confidential clients only) and Delete; the last two ask in place.
import type { OAuthClient } from "../../../../gen/gatehouse/account/v1/oauth_clients_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import type { ConsoleContext } from "./shell.js";
import { confirmInPlace, smallButton } from "./ui.js";

export interface ClientEvents {
  edit: () => void;
  rotated: (secret: string) => Promise<void>;
  deleted: () => Promise<void>;
}

export function clientActions(ctx: ConsoleContext, client: OAuthClient, on: ClientEvents): HTMLElement {
  const named = (button: HTMLButtonElement, key: string) => {
    button.setAttribute("aria-label", t(key, { name: client.name }));
    return button;
  };
  const row = h(
    "div",
    { class: "row-actions" },
    named(smallButton(t("console.edit"), on.edit), "console.oauth.editNamed"),
  );
  if (client.type !== "public") {
    const rotate = named(
      smallButton(t("console.oauth.rotate"), () =>
        confirmInPlace(
          rotate,
          t("console.oauth.rotateQuestion", { name: client.name }),
          t("console.oauth.rotate"),
          async () => {
            const answer = await ctx.client.rotateOAuthClientSecret({ clientId: client.clientId });
            await on.rotated(answer.clientSecret);
          },
        ),
      ),
      "console.oauth.rotateNamed",
    );
    row.append(rotate);
  }
  const remove = named(
    smallButton(t("console.delete"), () =>
      confirmInPlace(
        remove,
        t("console.oauth.deleteQuestion", { name: client.name }),
        t("console.delete"),
        async () => {
          await ctx.client.deleteOAuthClient({ clientId: client.clientId });
          await on.deleted();
        },
      ),
    ),
    "console.oauth.deleteNamed",
  );
  row.append(remove);
  return row;
}
