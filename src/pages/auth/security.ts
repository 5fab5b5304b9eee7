// The security page (`/security#access_token=…`): the signed-in user's passkeys, to add,
// rename and delete. The application opens it with the user's access token in the fragment,
// which no server or log sees; the page takes it out of the address bar at once and keeps it
// in memory only, so a reload needs the application again. Every call acts as that user.
import { alertParagraph, footer, h, link, paragraph, showView, statusRegion } from "../shared/dom.js";
import { explain } from "../shared/errors.js";
import { Form } from "../shared/form.js";
import { takeFromUrl } from "../shared/redirect.js";
import type { Page } from "./context.js";
import { passkeyList } from "./passkey-list.js";
import { asUser, passkeysOffered, registerPasskey } from "./passkeys.js";
import { showRecoveryCodes } from "../shared/recovery-codes.js";
import { t } from "../shared/words.js";

const TITLE = "title.security";

export async function showSecurity(page: Page): Promise<void> {
  const token = takeFromUrl().fragment.get("access_token");
  if (!token) {
    showView(t(TITLE), alertParagraph(t("security.needsApp")), back(page));
    return;
  }
  showView(t(TITLE), statusRegion(t("security.loading")));
  await showPasskeys(page, token);
}

/** The whole view, drawn again after each change with `said` in its status line. */
async function showPasskeys(page: Page, token: string, said = ""): Promise<void> {
  let passkeys;
  try {
    passkeys = (await asUser(page, token).listPasskeys({})).data;
  } catch (error) {
    showView(t(TITLE), alertParagraph(explain(error).message), back(page));
    return;
  }
  const changed = (message: string) => showPasskeys(page, token, message);
  const status = statusRegion();
  const listHeading = h("h2", { tabindex: "-1" }, t("security.yours"));
  showView(
    t(TITLE),
    paragraph(t("security.intro", { project: page.config.display_name })),
    status,
    listHeading,
    passkeys.length > 0
      ? passkeyList(page, token, passkeys, changed)
      : paragraph(t("security.none"), { class: "empty" }),
    h("h2", {}, t("passkeys.add")),
    passkeysOffered(page) ? addForm(page, token, changed) : paragraph(t("security.cannot")),
    back(page),
  );
  // Filled once in the page, so it is announced; after a change, start where the list starts.
  status.textContent = said;
  if (said) listHeading.focus();
}

function addForm(page: Page, token: string, changed: (message: string) => Promise<void>): HTMLFormElement {
  const form = new Form({
    id: "add-passkey",
    fields: [
      {
        name: "name",
        label: t("security.passkeyName"),
        optional: true,
        maxlength: 100,
        hint: t("security.passkeyNameHint"),
      },
    ],
    buttons: [{ label: t("passkeys.add") }],
  });
  form.onSubmit(async () => {
    const answer = await registerPasskey(page, { accessToken: token }, form.value("name"));
    // The first passkey of a user without MFA comes with recovery codes, shown once.
    if (answer.recoveryCodes.length > 0)
      showRecoveryCodes(answer.recoveryCodes, t("lost.passkey"), () => void changed(t("passkeys.passkeyAdded")));
    else await changed(t("passkeys.passkeyAdded"));
  });
  return form.element;
}

/** The way back to the application: the `?redirect_url=` it opened this page with, if any. */
function back(page: Page): HTMLElement | null {
  const to = page.config.redirect_override;
  return to ? footer(link(t("common.backTo", { name: page.config.display_name }), to)) : null;
}
