// Choosing a new password from a reset link (`?token=…&type=password_reset`).
import { link } from "../shared/dom.js";
import { showNewPassword } from "../shared/new-password.js";
import { takeFromUrl } from "../shared/redirect.js";
import { pageUrl, type Page } from "./context.js";

export function showResetPassword(page: Page): void {
  showNewPassword({
    token: takeFromUrl().query.get("token"),
    reset: (resetToken, newPassword) => page.auth.resetPassword({ resetToken, newPassword }),
    signInHref: pageUrl(page, "login"),
    footerLink: link("Ask for a new link", pageUrl(page, "forgot-password")),
  });
}
