// After a sign-up that signed in at once: the offer of a passkey for next time, registered with
// the new access token before the tokens go to the application. "Not now" goes on at once.
import { paragraph, showView } from "../shared/dom.js";
import { Form } from "../shared/form.js";
import type { Tokens } from "../shared/redirect.js";
import { finish, type Page } from "./context.js";
import { registerPasskey } from "./passkeys.js";
import { showRecoveryCodes } from "../shared/recovery-codes.js";
import { t } from "../shared/words.js";

export function showPasskeyOffer(page: Page, tokens: Tokens & { accessToken: string }): void {
  const form = new Form({
    id: "add-passkey",
    fields: [],
    buttons: [{ label: t("passkeys.add") }, { label: t("passkeys.notNow"), value: "later", secondary: true }],
  });
  form.onSubmit(async (action) => {
    if (action === "later") return finish(page, tokens);
    const answer = await registerPasskey(page, { accessToken: tokens.accessToken });
    // The user's first second step comes with recovery codes: a password sign-in now asks for the passkey.
    if (answer.recoveryCodes.length > 0)
      showRecoveryCodes(answer.recoveryCodes, t("lost.passkey"), () => finish(page, tokens));
    else await finish(page, tokens);
  });
  showView(t("passkeys.add"), paragraph(t("passkeys.offer", { project: page.config.display_name })), form.element);
}
