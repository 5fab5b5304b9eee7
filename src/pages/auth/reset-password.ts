// Choosing a new password from a reset link (`?token=…&type=password_reset`), or a first
// password from an administrator's invitation (`?token=…&type=invitation`, InviteUser): both
// links are spent by ResetPassword, which also marks the address verified. An invitation ends
// at the `redirect_url` the administrator named (the page's `?redirect_url=`, checked by the
// server before the page exists), else at sign-in. A link that no longer works turns into the
// request for a new one: a reset link sets a first password as well as an invitation would.
import { link } from "../shared/dom.js";
import { showNewPassword } from "../shared/new-password.js";
import { takeFromUrl } from "../shared/redirect.js";
import { pageUrl, type Page } from "./context.js";
import { showForgotPassword } from "./forgot-password.js";
import { t } from "../shared/words.js";

export function showResetPassword(page: Page): void {
  const { query } = takeFromUrl();
  const invitation = query.get("type") === "invitation";
  const signInHref = pageUrl(page, "login");
  showNewPassword({
    token: query.get("token"),
    reset: (resetToken, newPassword) => page.auth.resetPassword({ resetToken, newPassword }),
    signInHref,
    footerLink: link(t("reset.askNewLink"), pageUrl(page, "forgot-password")),
    spent: (message) => showForgotPassword(page, message),
    ...(invitation && {
      words: { heading: t("reset.invitationHeading"), button: t("reset.setPassword") },
      done: {
        heading: t("reset.passwordSet"),
        status: t("reset.passwordSetStatus"),
        next: page.config.redirect_override
          ? link(t("common.continue"), page.config.redirect_override)
          : link(t("common.signIn"), signInHref),
      },
    }),
  });
}
