// The member's own security (issue 46): its second factors (an authenticator app, passkeys),
// its recovery codes, and, for an admin, the organization's rule that every member has one.
// Factors belong to the member's identity: they guard each organization it belongs to.
import type { GetMemberMfaResponse } from "../../../../gen/gatehouse/account/v1/member_mfa_pb.js";
import type { MemberPasskey } from "../../../../gen/gatehouse/account/v1/member_passkeys_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import { registerMemberPasskey, memberPasskeysOffered } from "./member-passkeys.js";
import { secretOf } from "./mfa-sign-in.js";
import type { ConsoleContext } from "./shell.js";
import { confirmInPlace, note, part, smallButton, table, when } from "./ui.js";

export async function showSecurity(ctx: ConsoleContext): Promise<void> {
  const status = note("");
  const parts = h("div", {});
  const redraw = async (said = "") => {
    const [mfa, passkeys, organization] = await Promise.all([
      ctx.client.getMemberMfa({}),
      ctx.client.listMemberPasskeys({}),
      ctx.client.getOrganization({}),
    ]);
    status.textContent = said;
    parts.replaceChildren(
      summary(mfa),
      appPart(ctx, mfa, redraw),
      passkeysPart(ctx, passkeys.data, redraw),
      recoveryPart(ctx, mfa, redraw),
      policyPart(ctx, organization.organization?.requireMemberMfa ?? false, mfa.mfaEnabled, redraw),
    );
  };
  await redraw();
  ctx.body.append(status, parts);
}

type Redraw = (said?: string) => Promise<void>;

function summary(mfa: GetMemberMfaResponse): HTMLElement {
  const words = mfa.mfaEnabled ? t("console.security.on") : t("console.security.off");
  return h(
    "div",
    {},
    h("p", { id: "security-state" }, words),
    mfa.requiredByOrganization ? h("p", { class: "hint" }, t("console.security.requiredHint")) : "",
  );
}

function appPart(ctx: ConsoleContext, mfa: GetMemberMfaResponse, redraw: Redraw): HTMLElement {
  const enrolled = mfa.mfaMethods.includes("totp");
  if (enrolled) {
    const remove = smallButton(t("console.security.removeApp"), () =>
      confirmInPlace(remove, t("console.security.removeAppQuestion"), t("console.security.removeApp"), async () => {
        await ctx.client.unenrollMemberMfa({ method: "totp" });
        await redraw(t("console.security.appRemoved"));
      }),
    );
    return part("security-app", t("console.security.app"), h("p", {}, t("console.security.appOn")), remove);
  }
  const body = h("div", {});
  const start = smallButton(t("console.security.setUpApp"), () => void setUpApp(ctx, body, redraw), "primary");
  body.append(h("p", {}, t("console.security.appOff")), start);
  return part("security-app", t("console.security.app"), body);
}

async function setUpApp(ctx: ConsoleContext, into: HTMLElement, redraw: Redraw): Promise<void> {
  const started = await ctx.client.startMemberMfaEnrollment({ method: "totp", mfaToken: "" });
  const form = new ConsoleForm("security-app-code", t("common.verify"));
  form.add(form.text("code", t("common.authCode"), { autocomplete: "one-time-code" }));
  form.onSubmit(async () => {
    if (!form.requireFilled("code")) return;
    const answer = await ctx.client.verifyMemberMfa({ code: form.value("code").replace(/\s+/g, ""), method: "totp" });
    await redraw(t("console.security.appAdded"));
    if (answer.recoveryCodes.length > 0) showCodes(ctx, answer.recoveryCodes);
  });
  const secret = secretOf(started.totpUri);
  into.replaceChildren(
    h("p", {}, t("console.security.scan")),
    h("img", { class: "qr", src: started.qrCode, alt: t("enroll.qrAlt"), width: "200", height: "200" }),
    secret ? h("p", { class: "secret" }, `${t("enroll.byHand")} `, h("code", { dir: "ltr" }, secret)) : "",
    form.element,
  );
  form.control("code").focus();
}

function passkeysPart(ctx: ConsoleContext, passkeys: MemberPasskey[], redraw: Redraw): HTMLElement {
  const rows = passkeys.map((passkey) => {
    const remove = smallButton(t("console.security.removePasskey"), () =>
      confirmInPlace(
        remove,
        t("console.security.removePasskeyQuestion", { name: passkey.name }),
        t("console.security.removePasskey"),
        async () => {
          await ctx.client.deleteMemberPasskey({ id: passkey.id });
          await redraw(t("console.security.passkeyRemoved", { name: passkey.name }));
        },
      ),
    );
    remove.setAttribute("aria-label", t("console.security.removePasskeyNamed", { name: passkey.name }));
    return [passkey.name, when(passkey.createdAt), when(passkey.lastUsedAt), remove];
  });
  const content: Node[] = [
    passkeys.length === 0
      ? h("p", {}, t("console.security.noPasskeys"))
      : table(
          t("console.security.passkeys"),
          [t("console.security.passkeyName"), t("console.security.added"), t("console.security.lastUsed"), ""],
          rows,
        ),
  ];
  if (memberPasskeysOffered()) {
    const form = new ConsoleForm("security-passkey", t("console.security.addPasskey"));
    form.add(form.text("name", t("console.security.passkeyName"), { hint: t("console.security.passkeyNameHint") }));
    form.onSubmit(async () => {
      const answer = await registerMemberPasskey(ctx.client, { name: form.value("name") });
      await redraw(t("console.security.passkeyAdded", { name: answer.passkey?.name ?? "" }));
      if (answer.recoveryCodes.length > 0) showCodes(ctx, answer.recoveryCodes);
    });
    content.push(form.element);
  }
  return part("security-passkeys", t("console.security.passkeys"), ...content);
}

function recoveryPart(ctx: ConsoleContext, mfa: GetMemberMfaResponse, redraw: Redraw): HTMLElement {
  if (!mfa.mfaEnabled) return h("div", {});
  const renew = smallButton(t("console.security.newCodes"), () =>
    confirmInPlace(renew, t("console.security.newCodesQuestion"), t("console.security.newCodes"), async () => {
      const answer = await ctx.client.regenerateMemberRecoveryCodes({});
      await redraw();
      showCodes(ctx, answer.recoveryCodes);
    }),
  );
  return part(
    "security-recovery",
    t("console.security.recovery"),
    h("p", {}, t("console.security.codesLeft", { count: mfa.recoveryCodesRemaining })),
    renew,
  );
}

/** The recovery codes, shown once at the top of the section. */
function showCodes(ctx: ConsoleContext, codes: string[]): void {
  const box = part(
    "security-codes",
    t("recovery.title"),
    h("p", { class: "warning" }, t("console.security.codesIntro")),
    h(
      "ul",
      { class: "codes", "aria-label": t("recovery.listLabel"), dir: "ltr" },
      ...codes.map((c) => h("li", {}, h("code", {}, c))),
    ),
  );
  ctx.body.querySelector("#security-codes-title")?.closest("section")?.remove();
  ctx.body.prepend(box);
  box.querySelector("h2")?.setAttribute("tabindex", "-1");
  box.querySelector<HTMLElement>("h2")?.focus();
}

function policyPart(ctx: ConsoleContext, required: boolean, ownFactor: boolean, redraw: Redraw): HTMLElement {
  const state = h(
    "p",
    { id: "security-policy-state" },
    t(required ? "console.security.policyOn" : "console.security.policyOff"),
  );
  if (!ctx.isAdmin) return part("security-policy", t("console.security.policy"), state);
  const form = new ConsoleForm("security-policy-form", t("console.save"));
  form.add(form.checkbox("require_member_mfa", t("console.security.requireLabel"), required));
  form.onSubmit(async () => {
    const answer = await ctx.client.updateOrganization({ requireMemberMfa: form.checked("require_member_mfa") });
    await redraw(
      answer.organization?.requireMemberMfa
        ? t("console.security.policySaved", { count: answer.revokedTokens })
        : t("console.security.policyOffSaved"),
    );
  });
  const hint = h(
    "p",
    { class: "hint" },
    t(ownFactor ? "console.security.policyHint" : "console.security.policyNeedsFactor"),
  );
  return part("security-policy", t("console.security.policy"), state, hint, form.element);
}
