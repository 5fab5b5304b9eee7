// Opening a sign-in link (`?token=…&type=magic_link`): the sign-in finishes here once the
// person presses "Continue signing in", then goes on to the MFA step or to the application.
//
// Opening the page spends nothing. Mail scanners follow the links in a message, and some run
// the page's script too: a page that posted VerifyMagicLink as it loaded signed the scanner in
// and left the person a dead link. Only the press posts. The address the link was sent to is
// not shown: the token is all the page has, and learning more would spend it or need a call
// that answers for a token without spending it.
import { alertParagraph, footer, link, paragraph, showView } from "../shared/dom.js";
import { explain, invalidLink } from "../shared/errors.js";
import { Form } from "../shared/form.js";
import { takeFromUrl } from "../shared/redirect.js";
import { pageUrl, type Page } from "./context.js";
import { signedIn } from "./outcome.js";
import { t } from "../shared/words.js";

/** Answers after which the link cannot work: the press is not offered again. */
const DEAD_LINK = new Set(["INVALID_LINK", "VALIDATION_FAILED", "USER_DISABLED"]);

export function showMagicLink(page: Page): void {
  const token = takeFromUrl().query.get("token");
  const back = () => footer(link(t("common.backToSignIn"), pageUrl(page, "login")));
  if (!token) {
    showView(t("title.login"), alertParagraph(invalidLink()), back());
    return;
  }
  const form = new Form({ id: "magic-link", fields: [], buttons: [{ label: t("magic.continue") }] });
  form.onSubmit(async () => {
    let answer;
    try {
      answer = await page.auth.verifyMagicLink({ token });
    } catch (error) {
      const explained = explain(error);
      if (!explained.reason || !DEAD_LINK.has(explained.reason)) throw error;
      // Spent, expired or refused: say so in a view of its own, with the way back.
      showView(
        t("title.login"),
        alertParagraph(explained.reason === "VALIDATION_FAILED" ? invalidLink() : explained.message),
        back(),
      );
      return;
    }
    await signedIn(page, answer);
  });
  showView(
    t("magic.heading", { project: page.config.display_name }),
    paragraph(t("magic.intro")),
    form.element,
    back(),
  );
}
