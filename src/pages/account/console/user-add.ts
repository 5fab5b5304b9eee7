// Adding a user from the console, as the project's administrator: an invitation by mail
// (InviteUser: the person chooses a password from the link, which also verifies the address)
// or an account made at once (CreateUser, with a password or none: then the person signs in by
// code, link or SSO, or sets one by a reset). The console then opens the new user's page.
import { errorReason } from "../../../../sdk/ts/src/errors.js";
import { h } from "../../shared/dom.js";
import { explain } from "../../shared/errors.js";
import { t } from "../../shared/words.js";
import type { AuthClient } from "./client.js";
import { ConsoleForm } from "./form.js";
import { go } from "./route.js";

export function addUserForm(auth: AuthClient, projectId: string): HTMLElement {
  const form = new ConsoleForm("add-user", t("console.users.add"));
  form.add(
    form.text("email", t("console.users.email"), { type: "email" }),
    form.select("how", t("console.users.how"), [
      ["invite", t("console.users.howInvite")],
      ["create", t("console.users.howCreate")],
    ]),
    form.text("password", t("console.users.password"), {
      type: "password",
      autocomplete: "new-password",
      hint: t("console.users.passwordHint"),
    }),
  );
  form.onSubmit(async () => {
    if (!form.requireFilled("email")) return;
    const email = form.value("email");
    try {
      const user =
        form.value("how") === "invite"
          ? await auth.inviteUser({ email })
          : await auth.createUser({ email, password: form.control("password").value });
      go({ section: "users", project: projectId, user: user.id });
    } catch (error) {
      // The refusal names no field, but there is only one password to change.
      if (errorReason(error) !== "WEAK_PASSWORD") throw error;
      form.fail(explain(error).message, "password");
    }
  });
  return h(
    "section",
    { "aria-labelledby": "add-user-title" },
    h("h2", { id: "add-user-title" }, t("console.users.addTitle")),
    form.element,
  );
}
