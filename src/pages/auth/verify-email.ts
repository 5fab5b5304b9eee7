// Opening an email verification link (`?token=…&type=email_verification` or `email_change`).
// A signup's confirmation link (`type=magic_link`, signup.ts) lands here too, since the signup
// page names this page as its links' target: it goes on to the magic-link page, which spends it.
import { alertParagraph, footer, link, showView, statusRegion } from "../shared/dom.js";
import { explain, INVALID_LINK } from "../shared/errors.js";
import { takeFromUrl } from "../shared/redirect.js";
import { pageUrl, type Page } from "./context.js";

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
    showView("Verify your email", alertParagraph(INVALID_LINK), footer(link("Sign in", pageUrl(page, "login"))));
    return;
  }
  showView("Verify your email", statusRegion("Checking your link…"));
  try {
    await page.auth.verifyEmail({ token });
  } catch (error) {
    showView(
      "Verify your email",
      alertParagraph(explain(error).message),
      footer(link("Sign in", pageUrl(page, "login"))),
    );
    return;
  }
  showView(
    "Email verified",
    statusRegion("Your email address is verified."),
    footer(link("Continue", page.config.redirect_url)),
  );
}
