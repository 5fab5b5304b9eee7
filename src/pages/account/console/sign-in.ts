// The console's sign-in: a member signs in (choosing an organization when the identity has
// several), optionally asking to stay signed in, or asks for a password reset link.
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { accountClient } from "../../shared/client.js";
import { footer, h, link, paragraph, showView, statusRegion, actionButton } from "../../shared/dom.js";
import { emailField, Form } from "../../shared/form.js";
import type { OrganizationChoice } from "../../../../gen/gatehouse/account/v1/member_sign_in_pb.js";
import { t } from "../../shared/words.js";
import { showMemberSecondStep, type SecondStepDone } from "./mfa-sign-in.js";
import { keep, type Member } from "./session.js";

/**
 * What a signed-in member goes on to: the console (shell.ts). Passed in, since the console
 * shows this form again when the member signs out or the token expires.
 */
export type EnterConsole = (member: Member) => Promise<void>;

export function showConsoleSignIn(enter: EnterConsole, notice = ""): void {
  const form = new Form({
    id: "console-login",
    fields: [
      emailField(),
      {
        name: "password",
        label: t("common.password"),
        type: "password",
        autocomplete: "current-password",
        maxlength: 1024,
      },
    ],
    buttons: [{ label: t("common.signIn") }],
  });
  const stay = h("input", { type: "checkbox", id: "console-login-stay", name: "stay" });
  form.element.insertBefore(
    h("div", { class: "check" }, stay, h("label", { for: stay.id }, t("console.staySignedIn"))),
    form.element.querySelector(".actions"),
  );
  form.onSubmit(
    async () => {
      if (!form.requireFilled("email", "password")) return;
      const email = form.value("email");
      const password = form.raw("password");
      const answer = await accountClient().login({ email, password });
      if (answer.managementToken) return signedIn(enter, answer, email, "", stay.checked);
      // A second factor to give (or to set up first): mfa-sign-in.ts.
      if (answer.mfaRequired)
        return showMemberSecondStep(answer, (done) => signedIn(enter, done, email, "", stay.checked));
      showOrganizationChoice(enter, email, password, answer.organizations, stay.checked);
    },
    () => "password",
  );
  showView(
    t("common.signIn"),
    notice && statusRegion(notice),
    form.element,
    footer(actionButton(t("login.forgot"), showMemberForgotPassword)),
  );
}

function signedIn(
  enter: EnterConsole,
  answer: SecondStepDone,
  email: string,
  organizationName: string,
  stay: boolean,
): Promise<void> {
  const member: Member = {
    token: answer.managementToken,
    email,
    organizationId: answer.organizationId,
    organizationName,
    expiresAt: answer.expiresAt ? timestampDate(answer.expiresAt).getTime() : 0,
  };
  keep(member, stay);
  return enter(member);
}

function showOrganizationChoice(
  enter: EnterConsole,
  email: string,
  password: string,
  organizations: OrganizationChoice[],
  stay: boolean,
): void {
  const form = new Form({ id: "organization", fields: [], buttons: [{ label: t("common.continue") }] });
  const options = organizations.map((org, index) => {
    const id = `organization-${index}`;
    const radio = h("input", { type: "radio", name: "organization", id, value: org.id, checked: index === 0 });
    return h(
      "div",
      { class: "choice" },
      radio,
      h("label", { for: id }, t("account.organizationOption", { organization: org.name, role: org.role })),
    );
  });
  const group = h("fieldset", {}, h("legend", {}, t("account.organization")), ...options);
  form.element.insertBefore(group, form.element.querySelector(".actions"));
  form.onSubmit(async () => {
    const chosen = new FormData(form.element).get("organization");
    const organizationId = typeof chosen === "string" ? chosen : "";
    const answer = await accountClient().login({ email, password, organizationId });
    const name = organizations.find((org) => org.id === organizationId)?.name ?? "";
    if (answer.mfaRequired) return showMemberSecondStep(answer, (done) => signedIn(enter, done, email, name, stay));
    await signedIn(enter, answer, email, name, stay);
  });
  showView(t("account.chooseOrganization"), paragraph(t("account.severalOrganizations")), form.element);
  group.querySelector("input")?.focus();
}

function showMemberForgotPassword(): void {
  const form = new Form({
    id: "member-forgot",
    fields: [emailField()],
    buttons: [{ label: t("common.sendResetLink") }],
  });
  const status = statusRegion();
  form.onSubmit(async () => {
    if (!form.requireFilled("email")) return;
    const email = form.value("email");
    await accountClient().requestMemberPasswordReset({ email });
    form.element.remove();
    status.textContent = t("account.resetSent", { email, hours: 1 });
    heading.focus();
  });
  const heading = showView(
    t("title.forgot-password"),
    status,
    form.element,
    footer(link(t("common.backToSignIn"), "/")),
  );
}
