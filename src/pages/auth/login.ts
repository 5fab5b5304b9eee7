// The sign-in page: email and password, the passwordless ways in (a passkey, a code by email
// or SMS, a link by email) sharing the one Email field, and a link per SSO connection.
import { botCheck } from "../shared/bot-check.js";
import { footer, h, link, present, showView } from "../shared/dom.js";
import { emailField, Form } from "../shared/form.js";
import { pageUrl, type Page } from "./context.js";
import { sendEmailCode, sendMagicLink, showPhoneStep } from "./codes.js";
import { continuingTo, loginHint } from "./oauth.js";
import { signedIn } from "./outcome.js";
import { passkeysOffered, pickFromAutofill, signInWithPasskey } from "./passkeys.js";
import { ssoLinks } from "./sso-links.js";
import { t } from "../shared/words.js";

export function showLogin(page: Page): void {
  const passkeys = passkeysOffered(page);
  // An OAuth application may name the account (login_hint): the person then types the password.
  const email = loginHint(page);
  const form = new Form({
    id: "login",
    fields: [
      // "webauthn": the browser may offer the site's passkeys in this field's autofill.
      emailField({ autocomplete: passkeys ? "username webauthn" : "username", value: email }),
      {
        name: "password",
        label: t("common.password"),
        type: "password",
        autocomplete: "current-password",
        maxlength: 1024,
      },
    ],
    buttons: [{ label: t("login.submit"), value: "password" }],
  });
  // The ways in that send mail or SMS carry a solved challenge when the project asks for one.
  const check = botCheck(page.config.bot_protection, page.auth);
  const passwordField = present(form.input("password").parentElement, "password field");
  passwordField.append(h("p", { class: "field-link" }, link(t("login.forgot"), pageUrl(page, "forgot-password"))));
  form.element.append(
    h("p", { class: "divider" }, h("span", {}, t("common.or"))),
    ...(check.element ? [check.element] : []),
    form.actions([
      ...(passkeys ? [{ label: t("login.passkey"), value: "passkey", secondary: true }] : []),
      { label: t("login.emailCode"), value: "email-code", secondary: true },
      { label: t("login.magicLink"), value: "magic-link", secondary: true },
      ...(page.config.sms_codes ? [{ label: t("login.smsCode"), value: "sms-code", secondary: true }] : []),
    ]),
  );
  form.onSubmit(
    async (action) => {
      if (action === "passkey") return passkeyButton(page, form);
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
    ? [footer(`${t("login.newHere")} `, link(t("login.createAccount"), pageUrl(page, "signup")))]
    : [];
  showView(t("title.login"), continuingTo(page), form.element, ssoLinks(page), ...signupLink);
  if (email) form.input("password").focus();
  // After the view is up: the browser looks for the field when the request opens.
  if (passkeys) offerAutofill(page, form);
}

/** The discoverable ceremony: the browser offers every passkey it holds for the site. */
async function passkeyButton(page: Page, form: Form): Promise<void> {
  let answer;
  try {
    answer = await signInWithPasskey(page);
  } catch (error) {
    // Pressing the button aborted the autofill request: it goes back to the field.
    offerAutofill(page, form);
    throw error;
  }
  await signedIn(page, answer);
}

/**
 * Keeps the Email field's autofill offering passkeys while this view is up. A pick signs in as
 * a press would, and a failure says so in the form. It does not reopen the request: the person
 * has the button and the password, and a browser that answers a request without asking would
 * send the same failing passkey round again and again.
 */
function offerAutofill(page: Page, form: Form): void {
  void pickFromAutofill(page, () => form.element.isConnected).then((picked) => {
    if (picked) void form.run(async () => signedIn(page, await picked.finish()));
  });
}
