// The ten recovery codes that come with a user's first second step (an authenticator app or a
// passkey): shown once, here, and never again, so the view waits for "Continue".
import { h, paragraph, showView } from "./dom.js";
import { Form } from "./form.js";
import { t } from "./words.js";

/**
 * What the codes stand in for, in the explanation: "your authenticator app", "your passkey".
 * `next` may fail (an OAuth authorization that expired meanwhile): the form says so.
 */
export function showRecoveryCodes(codes: string[], lost: string, next: () => void | Promise<void>): void {
  const form = new Form({ id: "recovery", fields: [], buttons: [{ label: t("common.continue") }] });
  form.onSubmit(async () => next());
  const heading = showView(
    t("recovery.title"),
    paragraph(t("recovery.intro", { lost })),
    h(
      "ul",
      { class: "codes", "aria-label": t("recovery.listLabel"), dir: "ltr" },
      ...codes.map((code) => h("li", {}, h("code", {}, code))),
    ),
    form.element,
  );
  // The codes come before the button: start at the top.
  heading.focus();
}
