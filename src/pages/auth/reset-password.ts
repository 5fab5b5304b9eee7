// Choosing a new password from a reset link (`?token=…&type=password_reset`), or a first
// password from an administrator's invitation (`?token=…&type=invitation`, InviteUser): both
// links are spent by ResetPassword, which also marks the address verified. An invitation ends
// at the `redirect_url` the administrator named (the page's `?redirect_url=`, checked by the
// server before the page exists), else at sign-in.
import { link } from "../shared/dom.js";
import { showNewPassword } from "../shared/new-password.js";
import { takeFromUrl } from "../shared/redirect.js";
import { pageUrl, type Page } from "./context.js";

export function showResetPassword(page: Page): void {
  const { query } = takeFromUrl();
  const invitation = query.get("type") === "invitation";
  const signInHref = pageUrl(page, "login");
  showNewPassword({
    token: query.get("token"),
    reset: (resetToken, newPassword) => page.auth.resetPassword({ resetToken, newPassword }),
    signInHref,
    footerLink: link("Ask for a new link", pageUrl(page, "forgot-password")),
    ...(invitation && {
      words: { heading: "Choose your password", button: "Set password" },
      done: {
        heading: "Password set",
        status: "Your password is set and your email address is verified.",
        next: page.config.redirect_override
          ? link("Continue", page.config.redirect_override)
          : link("Sign in", signInHref),
      },
    }),
  });
}
