// The second step of a sign-in for a user with MFA: a code from the authenticator app (or the
// SMS sent with the challenge), or one of the recovery codes.
import { actionButton, footer, link, paragraph, showView } from "../shared/dom.js";
import { Form } from "../shared/form.js";
import { finish, pageUrl, type Page } from "./context.js";

export function showMfa(page: Page, mfaToken: string, methods: string[], recovery = false): void {
  const smsOnly = methods.length > 0 && methods.every((m) => m === "sms");
  const form = new Form({
    id: "mfa",
    fields: recovery
      ? [{ name: "code", label: "Recovery code", autocomplete: "off", maxlength: 32 }]
      : [
          {
            name: "code",
            label: "Authentication code",
            autocomplete: "one-time-code",
            inputmode: "numeric",
            maxlength: 6,
          },
        ],
    buttons: [{ label: "Verify" }],
  });
  form.onSubmit(async () => {
    if (!form.requireFilled("code")) return;
    // A recovery code goes without a method: the server checks any code that is not six
    // digits against the recovery codes.
    const method = recovery ? "" : smsOnly ? "sms" : "";
    const answer = await page.auth.verifyMfa({ mfaToken, code: form.value("code").replace(/\s+/g, ""), method });
    finish(page, answer);
  });
  const explanation = recovery
    ? "Enter one of the recovery codes you saved when you set up two-step verification. Each code works once."
    : smsOnly
      ? "We sent a six-digit code to your phone by text message. Enter it to finish signing in."
      : "Enter the six-digit code from your authenticator app to finish signing in.";
  const toggle = recovery
    ? actionButton("Use an authentication code", () => showMfa(page, mfaToken, methods, false))
    : actionButton("Use a recovery code", () => showMfa(page, mfaToken, methods, true));
  showView(
    "Two-step verification",
    paragraph(explanation),
    form.element,
    footer(toggle),
    footer(link("Start again", pageUrl(page, "login"))),
  );
}
