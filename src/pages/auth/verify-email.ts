// Opening an email verification link (`?token=…&type=email_verification` or `email_change`).
import { alertParagraph, footer, link, showView, statusRegion } from "../shared/dom.js";
import { explain, INVALID_LINK } from "../shared/errors.js";
import { takeFromUrl } from "../shared/redirect.js";
import { pageUrl, type Page } from "./context.js";

export async function showVerifyEmail(page: Page): Promise<void> {
  const token = takeFromUrl().query.get("token");
  if (!token) {
    showView("Verify your email", alertParagraph(INVALID_LINK), footer(link("Sign in", pageUrl(page, "login"))));
    return;
  }
  showView("Verify your email", statusRegion("Checking your link…"));
  try {
    await page.auth.verifyEmail({ token });
  } catch (error) {
    showView("Verify your email", alertParagraph(explain(error).message), footer(link("Sign in", pageUrl(page, "login"))));
    return;
  }
  showView("Email verified", statusRegion("Your email address is verified."), footer(link("Continue", page.config.redirect_url)));
}
