// Choosing a new password from an emailed link: the same view for an end user's reset (project
// pages) and a member's (account pages); only the call and where "Sign in" leads differ.
import { alertParagraph, footer, link, showView, statusRegion } from "./dom.js";
import { INVALID_LINK } from "./errors.js";
import { Form } from "./form.js";

export interface NewPasswordView {
  /** The token the link carried; absent: the link is broken and the view says so. */
  token: string | null;
  /** Sends the new password with the token (ResetPassword or ResetMemberPassword). */
  reset(token: string, newPassword: string): Promise<unknown>;
  signInHref: string;
  /** Shown under the form and under a broken link's words (a way to ask again). */
  footerLink: HTMLAnchorElement;
}

export function showNewPassword(view: NewPasswordView): void {
  const { token } = view;
  if (!token) {
    showView("Choose a new password", alertParagraph(INVALID_LINK), footer(view.footerLink));
    return;
  }
  const form = new Form({
    id: "new-password",
    fields: [
      {
        name: "new_password",
        label: "New password",
        type: "password",
        autocomplete: "new-password",
        maxlength: 128,
        hint: "At least 8 characters.",
      },
    ],
    buttons: [{ label: "Set new password" }],
  });
  form.onSubmit(async () => {
    if (!form.requireFilled("new_password")) return;
    await view.reset(token, form.raw("new_password"));
    showView(
      "Password changed",
      statusRegion("Your password has been changed."),
      footer(link("Sign in", view.signInHref)),
    );
  });
  showView("Choose a new password", form.element, footer(view.footerLink));
}
