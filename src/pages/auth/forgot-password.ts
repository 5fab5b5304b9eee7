// Asking for a password reset link. The answer is the same whether or not the address has an
// account, and so are the words. A reset or invitation link that no longer works opens this
// view too, saying so above the form (reset-password.ts).
import { botCheck } from "../shared/bot-check.js";
import { alertParagraph, footer, h, link, paragraph, present, showView, statusRegion } from "../shared/dom.js";
import { emailField, Form } from "../shared/form.js";
import { pageUrl, type Page } from "./context.js";
import { t } from "../shared/words.js";

/** `spent`: the words for the link that brought the person here and no longer works. */
export function showForgotPassword(page: Page, spent?: string): void {
  const form = new Form({
    id: "forgot",
    fields: [emailField()],
    buttons: [{ label: t("common.sendResetLink") }],
  });
  const check = botCheck(page.config.bot_protection, page.auth);
  if (check.element) present(form.element.querySelector(".actions"), "actions row").before(check.element);
  const status = statusRegion();
  const body = h("div", {}, spent ? alertParagraph(spent) : null, paragraph(t("forgot.intro")), form.element);
  form.onSubmit(async () => {
    if (!form.requireFilled("email")) return;
    const email = form.value("email");
    await page.auth.requestPasswordReset({
      email,
      redirectUrl: pageUrl(page, "reset-password", true),
      botProof: await check.proof(),
    });
    body.remove();
    status.textContent = t("forgot.sent", { email, minutes: 15 });
    heading.focus();
  });
  const heading = showView(
    t("title.forgot-password"),
    status,
    body,
    footer(link(t("common.backToSignIn"), pageUrl(page, "login"))),
  );
}
