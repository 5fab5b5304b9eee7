// What an administrator does to an account: disable or enable it (UpdateUser `disabled`; a
// disabled user's sign-ins are refused), send a password reset email (RequestPasswordReset, as
// the user would ask for one; only for an enabled user with an email), and delete it after typing its
// email (or phone, or id, for a user without one), as a project is deleted.
import { h, link } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import { href } from "./route.js";
import { note, part } from "./ui.js";
import type { UserPage } from "./user-detail.js";
import { contactOf } from "./users.js";

export function userActions(page: UserPage): Promise<Node[]> {
  const nodes: Node[] = [part("user-state", t("console.user.access"), stateForm(page))];
  // Gatehouse sends a disabled account no reset mail (and says nothing, as for any address).
  if (page.user.email)
    nodes.push(
      part(
        "user-reset",
        t("console.user.resetTitle"),
        page.user.disabled ? h("p", {}, t("console.user.resetDisabled")) : resetForm(page),
      ),
    );
  nodes.push(deleteForm(page));
  return Promise.resolve(nodes);
}

function stateForm(page: UserPage): HTMLElement {
  const { user } = page;
  const name = contactOf(user);
  const form = new ConsoleForm("user-state", user.disabled ? t("console.user.enable") : t("console.user.disable"), {
    danger: !user.disabled,
  });
  form.add(h("p", {}, user.disabled ? t("console.user.enableHint") : t("console.user.disableHint")));
  form.onSubmit(async () => {
    const updated = await page.auth.updateUser({ id: user.id, disabled: !user.disabled });
    await page.redraw(
      updated.disabled ? t("console.user.disabledNow", { user: name }) : t("console.user.enabledNow", { user: name }),
    );
  });
  return form.element;
}

function resetForm(page: UserPage): HTMLElement {
  const { email } = page.user;
  const form = new ConsoleForm("user-reset", t("console.user.sendReset"));
  const sent = note("");
  form.add(h("p", {}, t("console.user.resetHint", { email })), sent);
  form.onSubmit(async () => {
    sent.textContent = "";
    await page.auth.requestPasswordReset({ email });
    sent.textContent = t("console.user.resetSent", { email });
  });
  return form.element;
}

function deleteForm(page: UserPage): HTMLElement {
  const { ctx, user } = page;
  const name = contactOf(user);
  const form = new ConsoleForm("delete-user", t("console.user.delete"), { danger: true });
  form.add(
    h("p", {}, t("console.user.deleteWarning")),
    form.text("confirm", t("console.user.typeToConfirm", { name })),
  );
  form.onSubmit(async () => {
    if (form.value("confirm") !== name) {
      form.fail(t("console.user.nameMismatch"), "confirm");
      return;
    }
    await page.auth.deleteUser({ id: user.id });
    const done = note(t("console.user.deleted", { user: name }));
    done.tabIndex = -1;
    ctx.body.replaceChildren(
      done,
      h("p", {}, link(t("console.user.all"), href({ section: "users", project: ctx.route.project }))),
    );
    done.focus();
  });
  return h(
    "section",
    { class: "danger-zone", "aria-labelledby": "delete-user-title" },
    h("h2", { id: "delete-user-title" }, t("console.user.delete")),
    form.element,
  );
}
