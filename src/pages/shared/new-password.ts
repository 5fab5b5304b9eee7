// Choosing a new password from an emailed link: the same view for an end user's reset (project
// pages), an invited user's first password (project pages, `type=invitation`) and a member's
// reset (account pages); only the call, the words and where the person goes next differ.
import { alertParagraph, footer, link, showView, statusRegion } from "./dom.js";
import { explain, invalidLink } from "./errors.js";
import { Form } from "./form.js";
import { t } from "./words.js";

export interface NewPasswordView {
  /** The token the link carried; absent: the link is broken and the view says so. */
  token: string | null;
  /** Sends the new password with the token (ResetPassword or ResetMemberPassword). */
  reset(token: string, newPassword: string): Promise<unknown>;
  signInHref: string;
  /** Shown under the form and under a broken link's words (a way to ask again). */
  footerLink: HTMLAnchorElement;
  /** The form's heading and button; default: a reset's. */
  words?: { heading: string; button: string };
  /** The view once the password is set; default: "Password changed" with a link to sign in. */
  done?: { heading: string; status: string; next: HTMLAnchorElement };
  /**
   * A link that cannot work (no token, or INVALID_LINK: used, replaced or expired) hands over
   * to this view with the words saying so: a form that asks for a new link. Default: the words
   * and `footerLink`.
   */
  spent?: (message: string) => void;
}

export function showNewPassword(view: NewPasswordView): void {
  const { token } = view;
  const words = view.words ?? { heading: t("title.reset-password"), button: t("reset.setNewPassword") };
  const spent =
    view.spent ?? ((message: string) => showView(words.heading, alertParagraph(message), footer(view.footerLink)));
  if (!token) return spent(invalidLink());
  const form = new Form({
    id: "new-password",
    fields: [
      {
        name: "new_password",
        label: t("reset.newPassword"),
        type: "password",
        autocomplete: "new-password",
        maxlength: 128,
        hint: t("common.atLeast8"),
      },
    ],
    buttons: [{ label: words.button }],
  });
  form.onSubmit(async () => {
    if (!form.requireFilled("new_password")) return;
    try {
      await view.reset(token, form.raw("new_password"));
    } catch (error) {
      const explained = explain(error);
      if (explained.reason !== "INVALID_LINK") throw error;
      return spent(explained.message);
    }
    const done = view.done ?? {
      heading: t("reset.changed"),
      status: t("reset.changedStatus"),
      next: link(t("common.signIn"), view.signInHref),
    };
    showView(done.heading, statusRegion(done.status), footer(done.next));
  });
  showView(words.heading, form.element, footer(view.footerLink));
}
