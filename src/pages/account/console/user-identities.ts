// The SSO identities linked to a user (ListIdentities with user_id), each unlinked after a
// confirmation (UnlinkIdentity with user_id): the user then no longer signs in through it.
import type { LinkedIdentity } from "../../../../gen/gatehouse/auth/v1/common_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { confirmInPlace, part, smallButton, table, when } from "./ui.js";
import type { UserPage } from "./user-detail.js";

export async function userIdentities(page: UserPage): Promise<Node[]> {
  const answer = await page.auth.listIdentities({ userId: page.user.id });
  const content =
    answer.data.length === 0 ? h("p", {}, t("console.user.noIdentities")) : identityTable(page, answer.data);
  return [part("user-identities", t("console.user.identities"), content)];
}

function identityTable(page: UserPage, data: LinkedIdentity[]): HTMLElement {
  return table(
    t("console.user.identities"),
    [t("console.user.connection"), t("console.user.email"), t("console.user.subject"), t("console.user.linked"), ""],
    data.map((identity) => {
      const name = identity.connectionName || identity.provider;
      const unlink: HTMLButtonElement = smallButton(t("console.user.unlink"), () =>
        confirmInPlace(unlink, t("console.user.unlinkQuestion", { name }), t("console.user.unlink"), async () => {
          await page.auth.unlinkIdentity({ id: identity.id, userId: page.user.id });
          await page.redraw(t("console.user.unlinked", { name }));
        }),
      );
      unlink.setAttribute("aria-label", t("console.user.unlinkNamed", { name }));
      return [name, identity.email, h("code", {}, identity.subject), when(identity.linkedAt), unlink];
    }),
  );
}
