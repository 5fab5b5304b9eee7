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
import { showNewSignInLink } from "./new-link.js";
import { signedIn } from "./outcome.js";
import { t } from "../shared/words.js";

/** Answers after which the link cannot work: the press is not offered again. */
const DEAD_LINK = new Set(["INVALID_LINK", "VALIDATION_FAILED", "USER_DISABLED"]);

export function showMagicLink(page: Page): void {
  const token = takeFromUrl().query.get("token");
  const back = () => footer(link(t("common.backToSignIn"), pageUrl(page, "login")));
  // Spent, expired or malformed: say so, with the button that mails a new link.
  const spent = () =>
    showNewSignInLink(page, { title: t("title.login"), spent: invalidLink(), intro: t("magic.askNew") });
  if (!token) return spent();
  const form = new Form({ id: "magic-link", fields: [], buttons: [{ label: t("magic.continue") }] });
  form.onSubmit(async () => {
    let answer;
    try {
      answer = await page.auth.verifyMagicLink({ token });
    } catch (error) {
      const explained = explain(error);
      if (!explained.reason || !DEAD_LINK.has(explained.reason)) throw error;
      if (explained.reason !== "USER_DISABLED") return spent();
      // A disabled user gets no new link either: the words and the way back.
      return void showView(t("title.login"), alertParagraph(explained.message), back());
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
