// A member's password reset link (`/?type=member_password_reset&token=…`).
import { accountClient } from "../shared/client.js";
import { alertParagraph, footer, link, showView, statusRegion } from "../shared/dom.js";
import { INVALID_LINK } from "../shared/errors.js";
import { Form } from "../shared/form.js";

export function showMemberReset(token: string | null): void {
  if (!token) {
    showView("Choose a new password", alertParagraph(INVALID_LINK), footer(link("Sign in", "/")));
    return;
  }
  const form = new Form({
    id: "member-reset",
    fields: [{ name: "new_password", label: "New password", type: "password", autocomplete: "new-password", maxlength: 128, hint: "At least 8 characters." }],
    buttons: [{ label: "Set new password" }],
  });
  form.onSubmit(async () => {
    if (!form.requireFilled("new_password")) return;
    await accountClient().resetMemberPassword({ token, newPassword: form.raw("new_password") });
    showView("Password changed", statusRegion("Your password has been changed."), footer(link("Sign in", "/")));
  });
  showView("Choose a new password", form.element);
}
