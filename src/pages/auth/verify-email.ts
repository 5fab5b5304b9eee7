// Opening an email verification link (`?token=…&type=email_verification` or `email_change`).
// A signup's confirmation link (`type=magic_link`, signup.ts) lands here too, since the signup
// page names this page as its links' target: it goes on to the magic-link page, which spends it.
import { alertParagraph, footer, link, showView, statusRegion } from "../shared/dom.js";
import { explain, invalidLink } from "../shared/errors.js";
import { takeFromUrl } from "../shared/redirect.js";
import { pageUrl, type Page } from "./context.js";
import { t } from "../shared/words.js";

export async function showVerifyEmail(page: Page): Promise<void> {
  const query = new URLSearchParams(location.search);
  if (query.get("type") === "magic_link" && query.get("token")) {
    const next = new URL(pageUrl(page, "magic-link", true));
    next.searchParams.set("token", query.get("token")!);
    next.searchParams.set("type", "magic_link");
    location.replace(next.toString());
    return;
  }
  const token = takeFromUrl().query.get("token");
  if (!token) {
    showView(t("title.verify-email"), alertParagraph(invalidLink()), signIn(page));
    return;
  }
  showView(t("title.verify-email"), statusRegion(t("verify.checking")));
  try {
    await page.auth.verifyEmail({ token });
  } catch (error) {
    showView(t("title.verify-email"), alertParagraph(explain(error).message), signIn(page));
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
