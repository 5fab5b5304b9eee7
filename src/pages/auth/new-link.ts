// Where a sign-in or verification link that no longer works leads (used, replaced, expired): the
// words saying so, and the Email field with the button that mails a new sign-in link, instead of
// a dead end. Opening that link signs in and marks the address verified (VerifyMagicLink), so it
// does what either spent link was for. Only the person's own typing names the address: the spent
// token tells the page nothing, and the send answers alike for every address.
import { botCheck } from "../shared/bot-check.js";
import { alertParagraph, footer, link, paragraph, present, showView } from "../shared/dom.js";
import { emailField, Form } from "../shared/form.js";
import { sendMagicLink } from "./codes.js";
import { pageUrl, type Page } from "./context.js";
import { t } from "../shared/words.js";

export function showNewSignInLink(page: Page, view: { title: string; spent: string; intro: string }): void {
  const form = new Form({ id: "new-link", fields: [emailField()], buttons: [{ label: t("login.magicLink") }] });
  const check = botCheck(page.config.bot_protection, page.auth);
  if (check.element) present(form.element.querySelector(".actions"), "actions row").before(check.element);
  form.onSubmit(async () => {
    if (!form.requireFilled("email")) return;
    await sendMagicLink(page, form.value("email"), check);
  });
  showView(
    view.title,
    alertParagraph(view.spent),
    paragraph(view.intro),
    form.element,
    footer(link(t("common.backToSignIn"), pageUrl(page, "login"))),
  );
}
