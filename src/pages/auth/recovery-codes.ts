// The ten recovery codes that come with a user's first second step (an authenticator app or a
// passkey): shown once, here, and never again, so the view waits for "Continue".
import { h, paragraph, showView } from "../shared/dom.js";
import { Form } from "../shared/form.js";

/**
 * What the codes stand in for, in the explanation: "your authenticator app", "your passkey".
 * `next` may fail (an OAuth authorization that expired meanwhile): the form says so.
 */
export function showRecoveryCodes(codes: string[], lost: string, next: () => void | Promise<void>): void {
  const form = new Form({ id: "recovery", fields: [], buttons: [{ label: "Continue" }] });
  form.onSubmit(async () => next());
  const heading = showView(
    "Save your recovery codes",
    paragraph(
      `If you lose ${lost}, each of these codes lets you sign in once. Keep them somewhere safe: they are not shown again.`,
    ),
    h(
      "ul",
      { class: "codes", "aria-label": "Recovery codes" },
      ...codes.map((code) => h("li", {}, h("code", {}, code))),
    ),
    form.element,
  );
  // The codes come before the button: start at the top.
  heading.focus();
}
