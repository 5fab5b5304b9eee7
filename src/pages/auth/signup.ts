// Creating an account with email and password. The verification email (when the project sends
// one) links to the verify-email page. In a project that does not reveal registered addresses
// (reveal_email_exists off, the default) the answer is only "check your email", the same for
// every address: the mail's link (to the verify-email page, which hands it to the magic-link
// page) makes the account and signs in; a registered address is mailed a notice instead. A
// sign-up that signs in at once offers a passkey before it hands the tokens over.
import { botCheck } from "../shared/bot-check.js";
import { footer, link, present, showView, statusRegion } from "../shared/dom.js";
import { emailField, Form } from "../shared/form.js";
import { pageUrl, type Page } from "./context.js";
import { signedIn } from "./outcome.js";
import { showPasskeyOffer } from "./passkey-offer.js";
import { passkeysOffered } from "./passkeys.js";
import { ssoLinks } from "./sso-links.js";
import { continuingTo } from "./oauth.js";
import { pageLanguage, t } from "../shared/words.js";

export function showSignup(page: Page): void {
  if (!page.config.password_signups) return showClosed(page);
  const form = new Form({
    id: "signup",
    fields: [
      emailField({ autocomplete: "email" }),
      {
        name: "password",
        label: t("common.password"),
        type: "password",
        autocomplete: "new-password",
        maxlength: 128,
        hint: t("common.atLeast8"),
      },
    ],
    buttons: [{ label: t("signup.submit") }],
  });
  const check = botCheck(page.config.bot_protection, page.auth);
  if (check.element) present(form.element.querySelector(".actions"), "actions row").before(check.element);
  form.onSubmit(
    async () => {
      if (!form.requireFilled("email", "password")) return;
      const email = form.value("email");
      const answer = await page.auth.signup({
        email,
        password: form.raw("password"),
        redirectUrl: pageUrl(page, "verify-email", true),
        botProof: await check.proof(),
        // The new user's language, for the emails and pages that follow.
        locale: pageLanguage(),
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
  showView(t("title.signup"), continuingTo(page), form.element, ssoLinks(page, true), signInInstead(page));
}

/** The same words whether or not the address already has an account: its mail tells the owner which. */
function showCheckEmail(page: Page, email: string): void {
  // In an OAuth authorization the link carries it on (context.ts pageUrl), in this browser only.
  const application = page.oauth?.client.name || t("common.theApplication");
  const status = statusRegion(
    t("signup.sent", { email, minutes: 15 }) + (page.config.oauth ? ` ${t("signup.sentOAuth", { application })}` : ""),
  );
  showView(t("signup.checkEmail"), status, signInInstead(page));
}

/** A project that takes no sign-ups by password (signup controls): no form to fill in for nothing. */
function showClosed(page: Page): void {
  showView(t("title.signup"), statusRegion(t("signup.closed")), ssoLinks(page), signInInstead(page));
}

function signInInstead(page: Page): HTMLElement {
  return footer(`${t("common.alreadyHaveAccount")} `, link(t("common.signInInstead"), pageUrl(page, "login")));
}
