// Creating an account with email and password. The verification email (when the project sends
// one) links to the verify-email page.
import { botCheck } from "../shared/bot-check.js";
import { footer, link, showView } from "../shared/dom.js";
import { Form } from "../shared/form.js";
import { pageUrl, type Page } from "./context.js";
import { signedIn } from "./outcome.js";
import { ssoLinks } from "./sso-links.js";

export function showSignup(page: Page): void {
  const form = new Form({
    id: "signup",
    fields: [
      { name: "email", label: "Email", type: "email", autocomplete: "email", inputmode: "email", maxlength: 254 },
      { name: "password", label: "Password", type: "password", autocomplete: "new-password", maxlength: 128, hint: "At least 8 characters." },
    ],
    buttons: [{ label: "Create account" }],
  });
  const check = botCheck(page.config.bot_protection, page.auth);
  if (check.element) form.element.querySelector(".actions")!.before(check.element);
  form.onSubmit(
    async () => {
      if (!form.requireFilled("email", "password")) return;
      const email = form.value("email");
      const answer = await page.auth.signup({ email, password: form.raw("password"), redirectUrl: pageUrl(page, "verify-email", true), botProof: await check.proof() });
      await signedIn(page, answer);
    },
    () => "email",
  );
  showView("Create an account", form.element, ssoLinks(page, true), footer("Already have an account? ", link("Sign in instead", pageUrl(page, "login"))));
}
