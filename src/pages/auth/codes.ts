// Passwordless sign-in: a six-digit code by email or SMS, entered here, or a sign-in link by
// email that opens the magic-link page.
import { botCheck, type BotCheck } from "../shared/bot-check.js";
import { actionButton, footer, link, showView, statusRegion } from "../shared/dom.js";
import { Form } from "../shared/form.js";
import { pageUrl, type Page } from "./context.js";
import { signedIn } from "./outcome.js";
import { t } from "../shared/words.js";

type Destination = { email: string } | { phone: string };

export async function sendEmailCode(page: Page, email: string, check: BotCheck): Promise<void> {
  await page.auth.sendOtp({ email, channel: "email", botProof: await check.proof() });
  showCodeEntry(page, { email });
}

export async function sendMagicLink(page: Page, email: string, check: BotCheck): Promise<void> {
  await page.auth.sendMagicLink({
    email,
    redirectUrl: pageUrl(page, "magic-link", true),
    botProof: await check.proof(),
  });
  const status = statusRegion(t("codes.linkSent", { email, minutes: 15 }));
  showView(t("codes.linkSentTitle"), status, backToSignIn(page));
}

export function showPhoneStep(page: Page): void {
  const form = new Form({
    id: "phone",
    fields: [
      {
        name: "phone",
        label: t("codes.phone"),
        type: "tel",
        autocomplete: "tel",
        inputmode: "tel",
        hint: t("codes.phoneHint"),
      },
    ],
    buttons: [{ label: t("codes.sendCode") }],
  });
  const check = botCheck(page.config.bot_protection, page.auth);
  if (check.element) form.element.querySelector(".actions")!.before(check.element);
  form.onSubmit(async () => {
    if (!form.requireFilled("phone")) return;
    const phone = form.value("phone").replace(/[\s().-]/g, "");
    await page.auth.sendOtp({ phone, channel: "sms", botProof: await check.proof() });
    showCodeEntry(page, { phone });
  });
  showView(t("codes.phoneTitle"), form.element, backToSignIn(page));
}

function showCodeEntry(page: Page, to: Destination): void {
  const where = "email" in to ? to.email : to.phone;
  const form = new Form({
    id: "code",
    fields: [
      { name: "otp", label: t("codes.code"), autocomplete: "one-time-code", inputmode: "numeric", maxlength: 6 },
    ],
    buttons: [{ label: t("codes.verifyCode") }],
  });
  const status = statusRegion(t("codes.sentTo", { destination: where, minutes: 10 }));
  // "Send a new code" is a send like the first: with bot protection it carries a proof too.
  const check = botCheck(page.config.bot_protection, page.auth);
  form.onSubmit(async () => {
    if (!form.requireFilled("otp")) return;
    await signedIn(page, await page.auth.verifyOtp({ ...to, otp: form.value("otp").replace(/\s+/g, "") }));
  });
  const resend = actionButton(t("codes.sendNew"), () => {
    resend.disabled = true;
    check
      .proof()
      .then((botProof) => page.auth.sendOtp({ ...to, channel: "email" in to ? "email" : "sms", botProof }))
      .then(() => (status.textContent = t("codes.sentNew", { destination: where })))
      .catch((error: unknown) => form.failWith(error, "otp"))
      .finally(() => (resend.disabled = false));
  });
  showView(t("codes.title"), status, form.element, check.element, footer(resend), backToSignIn(page));
}

function backToSignIn(page: Page): HTMLElement {
  return footer(link(t("common.backToSignIn"), pageUrl(page, "login")));
}
