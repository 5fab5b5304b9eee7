// Accepting an invitation (`/?type=invitation&token=…`): a new member chooses a password; an
// existing member identity proves itself with its current one.
import { accountClient } from "../shared/client.js";
import { alertParagraph, footer, link, paragraph, showView } from "../shared/dom.js";
import { Form } from "../shared/form.js";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { showConsole } from "./console/shell.js";
import { t } from "../shared/words.js";

export function showInvitation(token: string | null): void {
  if (!token) {
    showView(
      t("title.accountInvitation"),
      alertParagraph(t("reason.INVALID_INVITATION")),
      footer(link(t("common.signIn"), "/")),
    );
    return;
  }
  const form = new Form({
    id: "invitation",
    fields: [
      {
        name: "password",
        label: t("account.choosePassword"),
        type: "password",
        autocomplete: "new-password",
        maxlength: 128,
        hint: t("account.choosePasswordHint"),
      },
    ],
    buttons: [{ label: t("account.accept") }],
  });
  form.onSubmit(async () => {
    if (!form.requireFilled("password")) return;
    const answer = await accountClient().acceptInvitation({ token, password: form.raw("password") });
    // Accepting signs in for this tab only: "Stay signed in" is asked at the sign-in form.
    await showConsole({
      token: answer.managementToken,
      email: answer.email,
      organizationId: answer.organizationId,
      organizationName: "",
      expiresAt: answer.expiresAt ? timestampDate(answer.expiresAt).getTime() : 0,
    });
  });
  showView(t("title.accountInvitation"), paragraph(t("account.invited")), form.element);
}
