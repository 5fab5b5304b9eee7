// The second step of a sign-in for a user with MFA: a code from the authenticator app (or the
// SMS sent with the challenge), a passkey, or one of the recovery codes.
import { actionButton, footer, link, paragraph, showView } from "../shared/dom.js";
import { Form, type ButtonSpec, type FieldSpec } from "../shared/form.js";
import { finish, pageUrl, type Page } from "./context.js";
import { passkeysOffered, signInWithPasskey } from "./passkeys.js";
import { t } from "../shared/words.js";

export function showMfa(page: Page, mfaToken: string, methods: string[], recovery = false): void {
  // The server sends the SMS with the challenge only to a user whose one method it is.
  const smsSent = methods.length === 1 && methods[0] === "sms";
  const codes = smsSent || methods.includes("totp");
  const passkey = methods.includes("webauthn") && passkeysOffered(page);
  const fields: FieldSpec[] = recovery
    ? [{ name: "code", label: t("mfa.recoveryCode"), autocomplete: "off", maxlength: 32 }]
    : codes
      ? [
          {
            name: "code",
            label: t("common.authCode"),
            autocomplete: "one-time-code",
            inputmode: "numeric",
            maxlength: 6,
          },
        ]
      : [];
  const buttons: ButtonSpec[] = fields.length > 0 ? [{ label: t("common.verify") }] : [];
  if (!recovery && passkey)
    buttons.push({ label: t("mfa.usePasskey"), value: "passkey", secondary: fields.length > 0 });
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
    ? actionButton(t(codes ? "mfa.useAuthCode" : "enroll.passkeyInstead"), () =>
        showMfa(page, mfaToken, methods, false),
      )
    : actionButton(t("mfa.useRecovery"), () => showMfa(page, mfaToken, methods, true));
  showView(
    t("mfa.title"),
    paragraph(explanation(recovery, smsSent, codes, passkey)),
    form.element,
    footer(toggle),
    footer(link(t("common.startAgain"), pageUrl(page, "login"))),
  );
}

function explanation(recovery: boolean, smsSent: boolean, codes: boolean, passkey: boolean): string {
  if (recovery) return t("mfa.explainRecovery");
  if (smsSent) return t("mfa.explainSms");
  if (codes && passkey) return t("mfa.explainCodeOrPasskey");
  if (passkey) return t("mfa.explainPasskey");
  if (codes) return t("mfa.explainCode");
  // A passkey this browser cannot use, and no code: a recovery code is the way on.
  return t("mfa.explainNoWay");
}
