// The sign-in page: email and password, the passwordless ways in (a code by email or SMS, a
// link by email) sharing the one Email field, and a link per SSO connection.
import { botCheck } from "../shared/bot-check.js";
import { footer, h, link, showView } from "../shared/dom.js";
import { Form } from "../shared/form.js";
import { pageUrl, type Page } from "./context.js";
import { sendEmailCode, sendMagicLink, showPhoneStep } from "./codes.js";
import { signedIn } from "./outcome.js";
import { ssoLinks } from "./sso-links.js";

export function showLogin(page: Page, email = ""): void {
  const form = new Form({
    id: "login",
    fields: [
      {
        name: "email",
        label: "Email",
        type: "email",
        autocomplete: "username",
        inputmode: "email",
        maxlength: 254,
        value: email,
      },
      { name: "password", label: "Password", type: "password", autocomplete: "current-password", maxlength: 1024 },
    ],
    buttons: [{ label: "Sign in", value: "password" }],
  });
  // The ways in that send mail or SMS carry a solved challenge when the project asks for one.
  const check = botCheck(page.config.bot_protection, page.auth);
  const passwordField = form.input("password").parentElement!;
  passwordField.append(
    h("p", { class: "field-link" }, link("Forgot your password?", pageUrl(page, "forgot-password"))),
  );
  form.element.append(
    h("p", { class: "divider" }, h("span", {}, "or")),
    ...(check.element ? [check.element] : []),
    form.actions([
      { label: "Email me a code", value: "email-code", secondary: true },
      { label: "Email me a sign-in link", value: "magic-link", secondary: true },
      { label: "Text me a code", value: "sms-code", secondary: true },
    ]),
  );
  form.onSubmit(
    async (action) => {
      if (action === "sms-code") return showPhoneStep(page);
      if (!form.requireFilled("email")) return;
      const address = form.value("email");
      if (action === "email-code") return sendEmailCode(page, address, check);
      if (action === "magic-link") return sendMagicLink(page, address, check);
      if (!form.requireFilled("password")) return;
      await signedIn(page, await page.auth.login({ email: address, password: form.raw("password") }));
    },
    (action) => (action === "password" ? "password" : "email"),
  );
  // Offered only where the form could make one (signup controls, API.md section 7).
  const signupLink = page.config.password_signups
    ? [footer("New here? ", link("Create an account", pageUrl(page, "signup")))]
    : [];
  showView("Sign in", form.element, ssoLinks(page), ...signupLink);
}
