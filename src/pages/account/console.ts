// The console: a member signs in (choosing an organization when the identity has several),
// sees the organization's projects and signs out. The management token lives only in this
// page's memory: a reload signs in again, and nothing is left in storage for another script.
import { accountClient } from "../shared/client.js";
import { footer, h, link, paragraph, showView, statusRegion, actionButton, alertParagraph } from "../shared/dom.js";
import { explain } from "../shared/errors.js";
import { Form, type FieldSpec } from "../shared/form.js";
import type { OrganizationChoice } from "../../../gen/gatehouse/account/v1/account_pb.js";
import { t } from "../shared/words.js";

export interface Member {
  token: string;
  email: string;
}

export function showConsoleSignIn(notice = ""): void {
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
  form.onSubmit(
    async () => {
      if (!form.requireFilled("email", "password")) return;
      const email = form.value("email");
      const password = form.raw("password");
      const answer = await accountClient().login({ email, password });
      if (answer.managementToken) return showHome({ token: answer.managementToken, email });
      showOrganizationChoice(email, password, answer.organizations);
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

function showOrganizationChoice(email: string, password: string, organizations: OrganizationChoice[]): void {
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
    const organizationId = new FormData(form.element).get("organization");
    const answer = await accountClient().login({ email, password, organizationId: String(organizationId) });
    await showHome({ token: answer.managementToken, email });
  });
  showView(t("account.chooseOrganization"), paragraph(t("account.severalOrganizations")), form.element);
  group.querySelector("input")?.focus();
}

export async function showHome(member: Member): Promise<void> {
  const client = accountClient(member.token);
  const list = h("ul", { class: "projects", "aria-label": t("account.projects") });
  const form = new Form({ id: "signout", fields: [], buttons: [{ label: t("account.signOut"), secondary: true }] });
  form.onSubmit(async () => {
    await client.logout({});
    showConsoleSignIn(t("account.signedOut"));
  });
  const heading = showView(
    t("account.projects"),
    paragraph(t("account.signedInAs", { email: member.email })),
    list,
    form.element,
  );
  heading.focus();
  try {
    const page = await client.listProjects({ limit: 100 });
    if (page.data.length === 0) list.replaceWith(paragraph(t("account.noProjects")));
    for (const project of page.data) {
      list.append(h("li", {}, h("span", { class: "project-name" }, project.name), " ", h("code", {}, project.loginId)));
    }
    if (page.hasMore) list.after(paragraph(t("account.newest", { count: 100 })));
  } catch (error) {
    list.replaceWith(alertParagraph(explain(error).message));
  }
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

function emailField(): FieldSpec {
  return {
    name: "email",
    label: t("common.email"),
    type: "email",
    autocomplete: "username",
    inputmode: "email",
    maxlength: 254,
  };
}
