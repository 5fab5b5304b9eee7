// The Cancel of a form that edits something in place of the "new" form: it puts the "new" form back.
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";

export function cancelButton(onClick: () => void): HTMLButtonElement {
  const button = h("button", { type: "button", class: "secondary" }, t("console.cancel"));
  button.addEventListener("click", onClick);
  return button;
}
