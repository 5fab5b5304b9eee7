// A member's password reset link (`/?type=member_password_reset&token=…`).
import { accountClient } from "../shared/client.js";
import { link } from "../shared/dom.js";
import { showNewPassword } from "../shared/new-password.js";
import { t } from "../shared/words.js";

export function showMemberReset(token: string | null): void {
  showNewPassword({
    token,
    reset: (token, newPassword) => accountClient().resetMemberPassword({ token, newPassword }),
    signInHref: "/",
    footerLink: link(t("common.backToSignIn"), "/"),
  });
}
