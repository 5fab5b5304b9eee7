// Asking for a password reset link. The answer is the same whether or not the address has an
// account, and so are the words.
import { botCheck } from "../shared/bot-check.js";
import { footer, h, link, paragraph, showView, statusRegion } from "../shared/dom.js";
import { Form } from "../shared/form.js";
import { pageUrl, type Page } from "./context.js";

export function showForgotPassword(page: Page): void {
  const form = new Form({
    id: "forgot",
    fields: [
      { name: "email", label: "Email", type: "email", autocomplete: "username", inputmode: "email", maxlength: 254 },
    ],
    buttons: [{ label: "Send reset link" }],
  });
  const check = botCheck(page.config.bot_protection, page.auth);
  if (check.element) form.element.querySelector(".actions")!.before(check.element);
  const status = statusRegion();
  const body = h(
    "div",
    {},
    paragraph("Enter the email of your account and we will send you a link to choose a new password."),
    form.element,
  );
  form.onSubmit(async () => {
    if (!form.requireFilled("email")) return;
    const email = form.value("email");
    await page.auth.requestPasswordReset({
      email,
      redirectUrl: pageUrl(page, "reset-password", true),
      botProof: await check.proof(),
    });
    body.remove();
    status.textContent = `If an account exists for ${email}, we sent it a link to choose a new password. The link works for 15 minutes.`;
    heading.focus();
  });
  const heading = showView(
    "Reset your password",
    status,
    body,
    footer(link("Back to sign in", pageUrl(page, "login"))),
  );
}
