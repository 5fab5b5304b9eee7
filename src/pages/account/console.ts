// The console: a member signs in (choosing an organization when the identity has several),
// sees the organization's projects and signs out. The management token lives only in this
// page's memory: a reload signs in again, and nothing is left in storage for another script.
import { accountClient } from "../shared/client.js";
import { footer, h, link, paragraph, showView, statusRegion, actionButton, alertParagraph } from "../shared/dom.js";
import { explain } from "../shared/errors.js";
import { Form } from "../shared/form.js";
import type { OrganizationChoice } from "../../../gen/gatehouse/account/v1/account_pb.js";

export interface Member {
  token: string;
  email: string;
}

export function showConsoleSignIn(notice = ""): void {
  const form = new Form({
    id: "console-login",
    fields: [
      { name: "email", label: "Email", type: "email", autocomplete: "username", inputmode: "email", maxlength: 254 },
      { name: "password", label: "Password", type: "password", autocomplete: "current-password", maxlength: 1024 },
    ],
    buttons: [{ label: "Sign in" }],
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
    "Sign in",
    notice && statusRegion(notice),
    form.element,
    footer(actionButton("Forgot your password?", showMemberForgotPassword)),
  );
}

function showOrganizationChoice(email: string, password: string, organizations: OrganizationChoice[]): void {
  const form = new Form({ id: "organization", fields: [], buttons: [{ label: "Continue" }] });
  const options = organizations.map((org, index) => {
    const id = `organization-${index}`;
    const radio = h("input", { type: "radio", name: "organization", id, value: org.id, checked: index === 0 });
    return h("div", { class: "choice" }, radio, h("label", { for: id }, `${org.name} (${org.role})`));
  });
  const group = h("fieldset", {}, h("legend", {}, "Organization"), ...options);
  form.element.insertBefore(group, form.element.querySelector(".actions"));
  form.onSubmit(async () => {
    const organizationId = new FormData(form.element).get("organization");
    const answer = await accountClient().login({ email, password, organizationId: String(organizationId) });
    await showHome({ token: answer.managementToken, email });
  });
  showView(
    "Choose an organization",
    paragraph("Your account belongs to several organizations. Which one do you want to work in?"),
    form.element,
  );
  group.querySelector("input")?.focus();
}

export async function showHome(member: Member): Promise<void> {
  const client = accountClient(member.token);
  const list = h("ul", { class: "projects", "aria-label": "Projects" });
  const form = new Form({ id: "signout", fields: [], buttons: [{ label: "Sign out", secondary: true }] });
  form.onSubmit(async () => {
    await client.logout({});
    showConsoleSignIn("You are signed out.");
  });
  const heading = showView("Projects", paragraph(`Signed in as ${member.email}`), list, form.element);
  heading.focus();
  try {
    const page = await client.listProjects({ limit: 100 });
    if (page.data.length === 0) list.replaceWith(paragraph("No projects yet."));
    for (const project of page.data) {
      list.append(h("li", {}, h("span", { class: "project-name" }, project.name), " ", h("code", {}, project.loginId)));
    }
    if (page.hasMore) list.after(paragraph("Showing the newest 100 projects."));
  } catch (error) {
    list.replaceWith(alertParagraph(explain(error).message));
  }
}

function showMemberForgotPassword(): void {
  const form = new Form({
    id: "member-forgot",
    fields: [
      { name: "email", label: "Email", type: "email", autocomplete: "username", inputmode: "email", maxlength: 254 },
    ],
    buttons: [{ label: "Send reset link" }],
  });
  const status = statusRegion();
  form.onSubmit(async () => {
    if (!form.requireFilled("email")) return;
    const email = form.value("email");
    await accountClient().requestMemberPasswordReset({ email });
    form.element.remove();
    status.textContent = `If an account exists for ${email}, we sent it a link to choose a new password. The link works for 1 hour.`;
    heading.focus();
  });
  const heading = showView("Reset your password", status, form.element, footer(link("Back to sign in", "/")));
}
