// A user's second factors (User.mfa_methods) and passkeys (ListPasskeys as the administrator),
// a passkey deleted after a confirmation (DeletePasskey: the id names it, the project's
// administrator may delete any user's). The last factor of a project that requires MFA is
// refused by the server with its own words.
import type { Passkey } from "../../../../gen/gatehouse/auth/v1/common_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { confirmInPlace, part, smallButton, table, when } from "./ui.js";
import type { UserPage } from "./user-detail.js";

const METHOD_WORDS: Record<string, string> = {
  totp: "console.user.method.totp",
  sms: "console.user.method.sms",
  webauthn: "console.user.method.webauthn",
};

export async function userFactors(page: UserPage): Promise<Node[]> {
  const { user } = page;
  const methods =
    user.mfaMethods.length === 0
      ? h("p", {}, t("console.user.noMfa"))
      : h("ul", {}, ...user.mfaMethods.map((m) => h("li", {}, METHOD_WORDS[m] ? t(METHOD_WORDS[m]) : m)));
  const answer = await page.auth.listPasskeys({ userId: user.id });
  const passkeys =
    answer.data.length === 0 ? h("p", {}, t("console.user.noPasskeys")) : passkeyTable(page, answer.data);
  return [
    part("user-mfa", t("console.user.mfa"), methods),
    part("user-passkeys", t("console.user.passkeys"), passkeys),
  ];
}

function passkeyTable(page: UserPage, data: Passkey[]): HTMLElement {
  return table(
    t("console.user.passkeys"),
    [t("console.name"), t("console.created"), t("console.user.lastUsed"), ""],
    data.map((passkey) => {
      const remove: HTMLButtonElement = smallButton(
        t("console.delete"),
        () =>
          confirmInPlace(
            remove,
            t("console.user.passkeyQuestion", { name: passkey.name }),
            t("console.delete"),
            async () => {
              await page.auth.deletePasskey({ id: passkey.id });
              await page.redraw(t("console.user.passkeyDeleted", { name: passkey.name }));
            },
          ),
        "danger",
      );
      remove.setAttribute("aria-label", t("console.user.passkeyDelete", { name: passkey.name }));
      return [
        passkey.name,
        when(passkey.createdAt),
        passkey.lastUsedAt ? when(passkey.lastUsedAt) : t("console.users.never"),
        remove,
      ];
    }),
  );
}
