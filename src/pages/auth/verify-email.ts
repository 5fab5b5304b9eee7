// Opening an email verification link (`?token=…&type=email_verification` or `email_change`).
// A signup's confirmation link (`type=magic_link`, signup.ts) lands here too, since the signup
// page names this page as its links' target: it goes on to the magic-link page, which spends it.
import { alertParagraph, footer, link, showView, statusRegion } from "../shared/dom.js";
import { explain, invalidLink } from "../shared/errors.js";
import { takeFromUrl } from "../shared/redirect.js";
import { pageUrl, type Page } from "./context.js";
import { showNewSignInLink } from "./new-link.js";
import { t } from "../shared/words.js";

export async function showVerifyEmail(page: Page): Promise<void> {
  const query = new URLSearchParams(location.search);
  const linkToken = query.get("token");
  if (query.get("type") === "magic_link" && linkToken) {
    const next = new URL(pageUrl(page, "magic-link", true));
    next.searchParams.set("token", linkToken);
    next.searchParams.set("type", "magic_link");
    location.replace(next.toString());
    return;
  }
  const { query: opened } = takeFromUrl();
  const token = opened.get("token");
  // A spent verification link leads to a new sign-in link, which verifies the address it goes
  // to. Not a spent email change's: a sign-in link to an address the user does not have yet
  // would sign up someone new; the user signs in and asks for the change again.
  const spent = (message: string): void => {
    if (opened.get("type") !== "email_change")
      return showNewSignInLink(page, { title: t("title.verify-email"), spent: message, intro: t("verify.askNew") });
    showView(t("title.verify-email"), alertParagraph(message), signIn(page));
  };
  if (!token) return spent(invalidLink());
  showView(t("title.verify-email"), statusRegion(t("verify.checking")));
  try {
    await page.auth.verifyEmail({ token });
  } catch (error) {
    const explained = explain(error);
    if (explained.reason === "INVALID_LINK") return spent(explained.message);
    showView(t("title.verify-email"), alertParagraph(explained.message), signIn(page));
    return;
  }
  showView(
    t("verify.verified"),
    statusRegion(t("verify.verifiedStatus")),
    footer(link(t("common.continue"), page.config.redirect_url)),
  );
}

function signIn(page: Page): HTMLElement {
  return footer(link(t("common.signIn"), pageUrl(page, "login")));
}
