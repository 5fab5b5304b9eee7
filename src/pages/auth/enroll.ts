// Enrolment forced by a project that requires MFA: the user signs in with a first factor,
// sets up an authenticator app (or registers a passkey) here, and only then gets tokens. The
// first factor's recovery codes are shown once, before leaving.
import { footer, h, link, paragraph, showView } from "../shared/dom.js";
import { Form } from "../shared/form.js";
import { finish, pageUrl, type Page } from "./context.js";
import { passkeysOffered, registerPasskey } from "./passkeys.js";
import { showRecoveryCodes } from "../shared/recovery-codes.js";
import { t } from "../shared/words.js";

export async function showEnrollment(page: Page, mfaToken: string): Promise<void> {
  const started = await page.auth.startMfaEnrollment({ method: "totp", mfaToken });
  const form = new Form({
    id: "enroll",
    fields: [
      {
        name: "code",
        label: t("common.authCode"),
        autocomplete: "one-time-code",
        inputmode: "numeric",
        maxlength: 6,
      },
    ],
    buttons: [{ label: t("common.verify") }],
  });
  form.onSubmit(async () => {
    if (!form.requireFilled("code")) return;
    const answer = await page.auth.verifyMfa({
      mfaToken,
      code: form.value("code").replace(/\s+/g, ""),
      method: "totp",
    });
    if (answer.recoveryCodes.length > 0)
      showRecoveryCodes(answer.recoveryCodes, t("lost.app"), () => finish(page, answer));
    else await finish(page, answer);
  });
  const secret = secretOf(started.totpUri);
  const heading = showView(
    t("enroll.title"),
    paragraph(t("enroll.intro")),
    h("img", {
      class: "qr",
      src: started.qrCode,
      alt: t("enroll.qrAlt"),
      width: "200",
      height: "200",
    }),
    secret && h("p", { class: "secret" }, `${t("enroll.byHand")} `, h("code", { dir: "ltr" }, secret)),
    h("p", {}, `${t("enroll.uriBefore")} `, link(t("enroll.uriLink"), started.totpUri), ` ${t("enroll.uriAfter")}`),
    form.element,
    passkeysOffered(page) && passkeyInstead(page, mfaToken),
    footer(link(t("common.startAgain"), pageUrl(page, "login"))),
  );
  // The instructions and the QR code come before the field: start at the top.
  heading.focus();
}

/** A passkey as the second step instead of the app: registered for the challenge's user, then tokens. */
function passkeyInstead(page: Page, mfaToken: string): HTMLElement {
  const form = new Form({
    id: "enroll-passkey",
    fields: [],
    buttons: [{ label: t("enroll.passkeyInstead"), secondary: true }],
  });
  form.onSubmit(async () => {
    const answer = await registerPasskey(page, { mfaToken });
    if (answer.recoveryCodes.length > 0)
      showRecoveryCodes(answer.recoveryCodes, t("lost.passkey"), () => finish(page, answer));
    else await finish(page, answer);
  });
  return h("div", {}, h("p", { class: "divider" }, h("span", {}, t("common.or"))), form.element);
}

function secretOf(uri: string): string | undefined {
  try {
    return new URL(uri).searchParams.get("secret") ?? undefined;
  } catch {
    return undefined;
  }
}
