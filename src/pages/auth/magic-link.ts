// Opening a sign-in link (`?token=…&type=magic_link`): the sign-in finishes here, or goes on
// to the MFA step.
import { alertParagraph, footer, link, showView, statusRegion } from "../shared/dom.js";
import { explain, INVALID_LINK } from "../shared/errors.js";
import { takeFromUrl } from "../shared/redirect.js";
import { pageUrl, type Page } from "./context.js";
import { signedIn } from "./outcome.js";

export async function showMagicLink(page: Page): Promise<void> {
  const token = takeFromUrl().query.get("token");
  const back = () => footer(link("Back to sign in", pageUrl(page, "login")));
  if (!token) {
    showView("Sign in", alertParagraph(INVALID_LINK), back());
    return;
  }
  showView("Signing you in", statusRegion("Checking your sign-in link…"));
  try {
    await signedIn(page, await page.auth.verifyMagicLink({ token }));
  } catch (error) {
    showView("Sign in", alertParagraph(explain(error).message), back());
  }
}
