// Choosing a new password from a reset link (`?token=…&type=password_reset`).
import { alertParagraph, footer, link, showView, statusRegion } from "../shared/dom.js";
import { INVALID_LINK } from "../shared/errors.js";
import { Form } from "../shared/form.js";
import { takeFromUrl } from "../shared/redirect.js";
import { pageUrl, type Page } from "./context.js";

export function showResetPassword(page: Page): void {
  const token = takeFromUrl().query.get("token");
  const again = footer(link("Ask for a new link", pageUrl(page, "forgot-password")));
  if (!token) {
    showView("Choose a new password", alertParagraph(INVALID_LINK), again);
    return;
  }
  const form = new Form({
    id: "reset",
    fields: [{ name: "new_password", label: "New password", type: "password", autocomplete: "new-password", maxlength: 128, hint: "At least 8 characters." }],
    buttons: [{ label: "Set new password" }],
  });
  form.onSubmit(async () => {
    if (!form.requireFilled("new_password")) return;
    await page.auth.resetPassword({ resetToken: token, newPassword: form.raw("new_password") });
    showView("Password changed", statusRegion("Your password has been changed."), footer(link("Sign in", pageUrl(page, "login"))));
  });
  showView("Choose a new password", form.element, again);
}
