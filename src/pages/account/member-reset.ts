// A member's password reset link (`/?type=member_password_reset&token=…`). A link that no longer
// works (used, replaced by a newer one, or past its hour) turns into the request for a new one.
import { accountClient } from "../shared/client.js";
import { alertParagraph, footer, h, link, paragraph, showView, statusRegion } from "../shared/dom.js";
import { emailField, Form } from "../shared/form.js";
import { showNewPassword } from "../shared/new-password.js";
import { t } from "../shared/words.js";

export function showMemberReset(token: string | null): void {
  showNewPassword({
    token,
    reset: (token, newPassword) => accountClient().resetMemberPassword({ token, newPassword }),
    signInHref: "/",
    footerLink: link(t("common.backToSignIn"), "/"),
    spent: showNewMemberLink,
  });
}

/** The spent link's words, and the Email field with the button that mails a new reset link (the same answer for any address). */
function showNewMemberLink(spent: string): void {
  const form = new Form({
    id: "member-new-link",
    fields: [emailField()],
    buttons: [{ label: t("common.sendResetLink") }],
  });
  const status = statusRegion();
  const body = h("div", {}, alertParagraph(spent), paragraph(t("forgot.intro")), form.element);
  form.onSubmit(async () => {
    if (!form.requireFilled("email")) return;
    const email = form.value("email");
    await accountClient().requestMemberPasswordReset({ email });
    body.remove();
    status.textContent = t("account.resetSent", { email, hours: 1 });
    heading.focus();
  });
  const heading = showView(t("title.forgot-password"), status, body, footer(link(t("common.backToSignIn"), "/")));
}
