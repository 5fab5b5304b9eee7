// Opening a sign-in link (`?token=…&type=magic_link`): the sign-in finishes here once the
// person presses "Continue signing in", then goes on to the MFA step or to the application.
//
// Opening the page spends nothing. Mail scanners follow the links in a message, and some run
// the page's script too: a page that posted VerifyMagicLink as it loaded signed the scanner in
// and left the person a dead link. Only the press posts. The address the link was sent to is
// not shown: the token is all the page has, and learning more would spend it or need a call
// that answers for a token without spending it.
import { alertParagraph, footer, link, paragraph, showView } from "../shared/dom.js";
import { explain, INVALID_LINK } from "../shared/errors.js";
import { Form } from "../shared/form.js";
import { takeFromUrl } from "../shared/redirect.js";
import { pageUrl, type Page } from "./context.js";
import { signedIn } from "./outcome.js";

/** Answers after which the link cannot work: the press is not offered again. */
const DEAD_LINK = new Set(["INVALID_LINK", "VALIDATION_FAILED", "USER_DISABLED"]);

export function showMagicLink(page: Page): void {
  const token = takeFromUrl().query.get("token");
  const back = () => footer(link("Back to sign in", pageUrl(page, "login")));
  if (!token) {
    showView("Sign in", alertParagraph(INVALID_LINK), back());
    return;
  }
  const form = new Form({ id: "magic-link", fields: [], buttons: [{ label: "Continue signing in" }] });
  form.onSubmit(async () => {
    let answer;
    try {
      answer = await page.auth.verifyMagicLink({ token });
    } catch (error) {
      const explained = explain(error);
      if (!explained.reason || !DEAD_LINK.has(explained.reason)) throw error;
      // Spent, expired or refused: say so in a view of its own, with the way back.
      showView(
        "Sign in",
        alertParagraph(explained.reason === "VALIDATION_FAILED" ? INVALID_LINK : explained.message),
        back(),
      );
      return;
    }
    await signedIn(page, answer);
  });
  showView(
    `Sign in to ${page.config.display_name}`,
    paragraph(
      "You opened a sign-in link from your email. Continue to finish signing in on this device. If you did not ask to sign in, close this page.",
    ),
    form.element,
    back(),
  );
}
