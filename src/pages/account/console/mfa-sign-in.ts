// The console sign-in's second step (issue 46): a member whose identity has a second factor
// gives a code from its authenticator app, a passkey or a recovery code; a member of an
// organization that requires one and has none sets one up here (an app or a passkey) before
// the console opens, and sees its recovery codes once.
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { actionButton, footer, h, link, paragraph, showView } from "../../shared/dom.js";
import { accountClient } from "../../shared/client.js";
import { Form, type ButtonSpec, type FieldSpec } from "../../shared/form.js";
import { t } from "../../shared/words.js";
import { showRecoveryCodes } from "../../shared/recovery-codes.js";
import { answerWithMemberPasskey, memberPasskeysOffered, registerMemberPasskey } from "./member-passkeys.js";

/** What Login or AcceptInvitation answered instead of a token. */
export interface MemberChallengeAnswer {
  mfaToken?: string;
  mfaMethods: string[];
}

/** What finishes the step: a management token for an organization. */
export interface SecondStepDone {
  managementToken: string;
  expiresAt?: Timestamp;
  organizationId: string;
}

export function showMemberSecondStep(
  answer: MemberChallengeAnswer,
  done: (signedIn: SecondStepDone) => Promise<void>,
): void {
  const mfaToken = answer.mfaToken ?? "";
  if (answer.mfaMethods.length === 0) void showMemberEnrollment(mfaToken, done);
  else showMemberCode(mfaToken, answer.mfaMethods, done, false);
}

function showMemberCode(
  mfaToken: string,
  methods: string[],
  done: (signedIn: SecondStepDone) => Promise<void>,
  recovery: boolean,
): void {
  const codes = methods.includes("totp");
  const passkey = methods.includes("webauthn") && memberPasskeysOffered();
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
  const form = new Form({ id: "member-mfa", fields, buttons });
  form.onSubmit(async (action) => {
    if (action === "passkey") return done(await answerWithMemberPasskey(accountClient(), mfaToken));
    if (!form.requireFilled("code")) return;
    // Anything but six digits is checked as a recovery code.
    const answer = await accountClient().verifyMemberMfa({ mfaToken, code: form.value("code").replace(/\s+/g, "") });
    await done(answer);
  });
  const explanation = recovery
    ? t("mfa.explainRecovery")
    : codes && passkey
      ? t("mfa.explainCodeOrPasskey")
      : passkey
        ? t("mfa.explainPasskey")
        : codes
          ? t("mfa.explainCode")
          : t("mfa.explainNoWay");
  const toggle = recovery
    ? actionButton(t(codes ? "mfa.useAuthCode" : "mfa.usePasskey"), () =>
        showMemberCode(mfaToken, methods, done, false),
      )
    : actionButton(t("mfa.useRecovery"), () => showMemberCode(mfaToken, methods, done, true));
  showView(
    t("mfa.title"),
    paragraph(explanation),
    form.element,
    footer(toggle),
    footer(link(t("common.startAgain"), "/")),
  );
}

async function showMemberEnrollment(mfaToken: string, done: (signedIn: SecondStepDone) => Promise<void>) {
  const started = await accountClient().startMemberMfaEnrollment({ method: "totp", mfaToken });
  const form = new Form({
    id: "member-enroll",
    fields: [
      { name: "code", label: t("common.authCode"), autocomplete: "one-time-code", inputmode: "numeric", maxlength: 6 },
    ],
    buttons: [{ label: t("common.verify") }],
  });
  form.onSubmit(async () => {
    if (!form.requireFilled("code")) return;
    const answer = await accountClient().verifyMemberMfa({
      mfaToken,
      code: form.value("code").replace(/\s+/g, ""),
      method: "totp",
    });
    showRecoveryCodes(answer.recoveryCodes, t("lost.app"), () => done(answer));
  });
  const secret = secretOf(started.totpUri);
  const heading = showView(
    t("enroll.title"),
    paragraph(t("enroll.intro")),
    h("img", { class: "qr", src: started.qrCode, alt: t("enroll.qrAlt"), width: "200", height: "200" }),
    secret && h("p", { class: "secret" }, `${t("enroll.byHand")} `, h("code", { dir: "ltr" }, secret)),
    form.element,
    memberPasskeysOffered() && passkeyInstead(mfaToken, done),
    footer(link(t("common.startAgain"), "/")),
  );
  // The instructions and the QR code come before the field: start at the top.
  heading.focus();
}

function passkeyInstead(mfaToken: string, done: (signedIn: SecondStepDone) => Promise<void>): HTMLElement {
  const form = new Form({
    id: "member-enroll-passkey",
    fields: [],
    buttons: [{ label: t("enroll.passkeyInstead"), secondary: true }],
  });
  form.onSubmit(async () => {
    const answer = await registerMemberPasskey(accountClient(), { mfaToken });
    showRecoveryCodes(answer.recoveryCodes, t("lost.passkey"), () => done(answer));
  });
  return h("div", {}, h("p", { class: "divider" }, h("span", {}, t("common.or"))), form.element);
}

export function secretOf(uri: string): string | undefined {
  try {
    return new URL(uri).searchParams.get("secret") ?? undefined;
  } catch {
    return undefined;
  }
}
