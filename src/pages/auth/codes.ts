// Passwordless sign-in: a six-digit code by email or SMS, entered here, or a sign-in link by
// email that opens the magic-link page. A second send to one address within the minute is
// refused by the server as a resend too soon (resendWait): the first message is on its way,
// so the page says that and goes on as if it had sent, never "too many attempts" about a
// field that is fine.
import { botCheck, type BotCheck } from "../shared/bot-check.js";
import { actionButton, footer, link, present, showView, statusRegion } from "../shared/dom.js";
import { resendWait } from "../shared/errors.js";
import { Form } from "../shared/form.js";
import { pageUrl, type Page } from "./context.js";
import { signedIn } from "./outcome.js";
import { t } from "../shared/words.js";

type Destination = { email: string } | { phone: string };

export async function sendEmailCode(page: Page, email: string, check: BotCheck): Promise<void> {
  const botProof = await check.proof();
  const recent = await unlessSentRecently(() => page.auth.sendOtp({ email, channel: "email", botProof }));
  showCodeEntry(page, { email }, recent);
}

export async function sendMagicLink(page: Page, email: string, check: BotCheck): Promise<void> {
  const botProof = await check.proof();
  const recent = await unlessSentRecently(() =>
    page.auth.sendMagicLink({ email, redirectUrl: pageUrl(page, "magic-link", true), botProof }),
  );
  const words =
    recent === undefined
      ? t("codes.linkSent", { email, minutes: 15 })
      : t("codes.linkRecent", { email, seconds: recent });
  showView(t("codes.linkSentTitle"), statusRegion(words), backToSignIn(page));
}

/** Sends; answers the seconds to wait when the server says a message went there less than a minute ago. */
async function unlessSentRecently(send: () => Promise<unknown>): Promise<number | undefined> {
  try {
    await send();
    return undefined;
  } catch (error) {
    const wait = resendWait(error);
    if (wait === undefined) throw error;
    return wait;
  }
}

/** "A code was sent to … less than a minute ago: check your inbox (messages), or wait … to ask again." */
function sentRecently(to: Destination, seconds: number): string {
  return "email" in to
    ? t("codes.recentEmail", { destination: to.email, seconds })
    : t("codes.recentSms", { destination: to.phone, seconds });
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
  if (check.element) present(form.element.querySelector(".actions"), "actions row").before(check.element);
  form.onSubmit(async () => {
    if (!form.requireFilled("phone")) return;
    const phone = form.value("phone").replace(/[\s().-]/g, "");
    const botProof = await check.proof();
    const recent = await unlessSentRecently(() => page.auth.sendOtp({ phone, channel: "sms", botProof }));
    showCodeEntry(page, { phone }, recent);
  });
  showView(t("codes.phoneTitle"), form.element, backToSignIn(page));
}

/** `recent`: the send was refused as too soon after the last one, this many seconds left to wait. */
function showCodeEntry(page: Page, to: Destination, recent?: number): void {
  const where = "email" in to ? to.email : to.phone;
  const form = new Form({
    id: "code",
    fields: [
      { name: "otp", label: t("codes.code"), autocomplete: "one-time-code", inputmode: "numeric", maxlength: 6 },
    ],
    buttons: [{ label: t("codes.verifyCode") }],
  });
  const status = statusRegion(
    recent === undefined ? t("codes.sentTo", { destination: where, minutes: 10 }) : sentRecently(to, recent),
  );
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
      .then((botProof) =>
        unlessSentRecently(() => page.auth.sendOtp({ ...to, channel: "email" in to ? "email" : "sms", botProof })),
      )
      .then(
        (again) =>
          (status.textContent =
            again === undefined ? t("codes.sentNew", { destination: where }) : sentRecently(to, again)),
      )
      .catch((error: unknown) => form.failWith(error, "otp"))
      .finally(() => (resend.disabled = false));
  });
  showView(t("codes.title"), status, form.element, check.element, footer(resend), backToSignIn(page));
}

function backToSignIn(page: Page): HTMLElement {
  return footer(link(t("common.backToSignIn"), pageUrl(page, "login")));
}
