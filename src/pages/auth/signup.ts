// Creating an account with email and password. The verification email (when the project sends
// one) links to the verify-email page. In a project that does not reveal registered addresses
// (reveal_email_exists off, the default) the answer is only "check your email", the same for
// every address: the mail's link (to the verify-email page, which hands it to the magic-link
// page) makes the account and signs in; a registered address is mailed a notice instead. A
// sign-up that signs in at once offers a passkey before it hands the tokens over.
import { botCheck } from "../shared/bot-check.js";
import { footer, link, showView, statusRegion } from "../shared/dom.js";
import { Form } from "../shared/form.js";
import { pageUrl, type Page } from "./context.js";
import { signedIn } from "./outcome.js";
import { showPasskeyOffer } from "./passkey-offer.js";
import { passkeysOffered } from "./passkeys.js";
import { ssoLinks } from "./sso-links.js";
import { continuingTo } from "./oauth.js";

export function showSignup(page: Page): void {
  if (!page.config.password_signups) return showClosed(page);
  const form = new Form({
    id: "signup",
    fields: [
      { name: "email", label: "Email", type: "email", autocomplete: "email", inputmode: "email", maxlength: 254 },
      {
        name: "password",
        label: "Password",
        type: "password",
        autocomplete: "new-password",
        maxlength: 128,
        hint: "At least 8 characters.",
      },
    ],
    buttons: [{ label: "Create account" }],
  });
  const check = botCheck(page.config.bot_protection, page.auth);
  if (check.element) form.element.querySelector(".actions")!.before(check.element);
  form.onSubmit(
    async () => {
      if (!form.requireFilled("email", "password")) return;
      const email = form.value("email");
      const answer = await page.auth.signup({
        email,
        password: form.raw("password"),
        redirectUrl: pageUrl(page, "verify-email", true),
        botProof: await check.proof(),
      });
      if (answer.confirmationRequired) return showCheckEmail(page, email);
      const { accessToken } = answer;
      // An OAuth application is waiting: no detour through the offer (docs/pages.md).
      if (accessToken && passkeysOffered(page) && !page.config.oauth)
        return showPasskeyOffer(page, { ...answer, accessToken });
      await signedIn(page, answer);
    },
    () => "email",
  );
  showView(
    "Create an account",
    continuingTo(page),
    form.element,
    ssoLinks(page, true),
    footer("Already have an account? ", link("Sign in instead", pageUrl(page, "login"))),
  );
}

/** The same words whether or not the address already has an account: its mail tells the owner which. */
function showCheckEmail(page: Page, email: string): void {
  // In an OAuth authorization the link carries it on (context.ts pageUrl), in this browser only.
  const application = page.oauth?.client.name || "the application";
  const status = statusRegion(
    `We sent a message to ${email}. Open the link in it to finish creating your account; the link works for 15 minutes.` +
      (page.config.oauth ? ` Open it in this browser to go on to ${application}.` : ""),
  );
  showView(
    "Check your email",
    status,
    footer("Already have an account? ", link("Sign in instead", pageUrl(page, "login"))),
  );
}

/** A project that takes no sign-ups by password (signup controls): no form to fill in for nothing. */
function showClosed(page: Page): void {
  showView(
    "Create an account",
    statusRegion("New accounts cannot be created here. If you already have one, sign in."),
    ssoLinks(page),
    footer("Already have an account? ", link("Sign in instead", pageUrl(page, "login"))),
  );
}
