// The second step of a sign-in for a user with MFA: a code from the authenticator app (or the
// SMS sent with the challenge), a passkey, or one of the recovery codes.
import { actionButton, footer, link, paragraph, showView } from "../shared/dom.js";
import { Form, type ButtonSpec, type FieldSpec } from "../shared/form.js";
import { finish, pageUrl, type Page } from "./context.js";
import { passkeysOffered, signInWithPasskey } from "./passkeys.js";

export function showMfa(page: Page, mfaToken: string, methods: string[], recovery = false): void {
  // The server sends the SMS with the challenge only to a user whose one method it is.
  const smsSent = methods.length === 1 && methods[0] === "sms";
  const codes = smsSent || methods.includes("totp");
  const passkey = methods.includes("webauthn") && passkeysOffered(page);
  const fields: FieldSpec[] = recovery
    ? [{ name: "code", label: "Recovery code", autocomplete: "off", maxlength: 32 }]
    : codes
      ? [
          {
            name: "code",
            label: "Authentication code",
            autocomplete: "one-time-code",
            inputmode: "numeric",
            maxlength: 6,
          },
        ]
      : [];
  const buttons: ButtonSpec[] = fields.length > 0 ? [{ label: "Verify" }] : [];
  if (!recovery && passkey) buttons.push({ label: "Use a passkey", value: "passkey", secondary: fields.length > 0 });
  const form = new Form({ id: "mfa", fields, buttons });
  form.onSubmit(async (action) => {
    if (action === "passkey") return finish(page, await signInWithPasskey(page, mfaToken));
    if (!form.requireFilled("code")) return;
    // A recovery code goes without a method: the server checks any code that is not six
    // digits against the recovery codes.
    const method = recovery ? "" : smsSent ? "sms" : "";
    const answer = await page.auth.verifyMfa({ mfaToken, code: form.value("code").replace(/\s+/g, ""), method });
    await finish(page, answer);
  });
  const toggle = recovery
    ? actionButton(codes ? "Use an authentication code" : "Use a passkey instead", () =>
        showMfa(page, mfaToken, methods, false),
      )
    : actionButton("Use a recovery code", () => showMfa(page, mfaToken, methods, true));
  showView(
    "Two-step verification",
    paragraph(explanation(recovery, smsSent, codes, passkey)),
    form.element,
    footer(toggle),
    footer(link("Start again", pageUrl(page, "login"))),
  );
}

function explanation(recovery: boolean, smsSent: boolean, codes: boolean, passkey: boolean): string {
  if (recovery)
    return "Enter one of the recovery codes you saved when you set up two-step verification. Each code works once.";
  if (smsSent) return "We sent a six-digit code to your phone by text message. Enter it to finish signing in.";
  if (codes && passkey)
    return "Enter the six-digit code from your authenticator app, or use a passkey, to finish signing in.";
  if (passkey) return "Use your passkey to finish signing in. Your browser will ask for it.";
  if (codes) return "Enter the six-digit code from your authenticator app to finish signing in.";
  // A passkey this browser cannot use, and no code: a recovery code is the way on.
  return "Your account's second step is a passkey, which this browser cannot use. Use a recovery code instead.";
}
