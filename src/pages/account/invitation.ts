// Accepting an invitation (`/?type=invitation&token=…`): a new member chooses a password; an
// existing member identity proves itself with its current one.
import { accountClient } from "../shared/client.js";
import { alertParagraph, footer, link, paragraph, showView } from "../shared/dom.js";
import { Form } from "../shared/form.js";
import { showHome } from "./console.js";

const SPENT = "This invitation has expired or was already used.";

export function showInvitation(token: string | null): void {
  if (!token) {
    showView("Accept your invitation", alertParagraph(SPENT), footer(link("Sign in", "/")));
    return;
  }
  const form = new Form({
    id: "invitation",
    fields: [
      {
        name: "password",
        label: "Choose a password",
        type: "password",
        autocomplete: "new-password",
        maxlength: 128,
        hint: "At least 8 characters. If you already have a Gatehouse account, enter its password.",
      },
    ],
    buttons: [{ label: "Accept invitation" }],
  });
  form.onSubmit(async () => {
    if (!form.requireFilled("password")) return;
    const answer = await accountClient().acceptInvitation({ token, password: form.raw("password") });
    await showHome({ token: answer.managementToken, email: answer.email });
  });
  showView("Accept your invitation", paragraph("You were invited to join an organization on Gatehouse."), form.element);
}
