// The Cancel of a form that edits something in place of the "new" form: it puts the "new" form back.
import { t } from "../../shared/words.js";
import { button } from "./component.js";

export function cancelButton(onClick: () => void): HTMLButtonElement {
  return button({ label: t("console.cancel"), onClick });
}
