// Accepting an invitation (`/?type=invitation&token=…`): a new member chooses a password; an
// existing member identity proves itself with its current one.
import { accountClient } from "../shared/client.js";
import { alertParagraph, footer, link, paragraph, showView } from "../shared/dom.js";
import { Form } from "../shared/form.js";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { showMemberSecondStep, type SecondStepDone } from "./console/mfa-sign-in.js";
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
    const open = (done: SecondStepDone) =>
      showConsole({
        token: done.managementToken,
        email: answer.email,
        organizationId: done.organizationId,
        organizationName: "",
        expiresAt: done.expiresAt ? timestampDate(done.expiresAt).getTime() : 0,
      });
    // A second factor to give, or to set up first (an organization that requires one).
    if (answer.mfaRequired) return showMemberSecondStep(answer, open);
    await open(answer);
  });
  showView(t("title.accountInvitation"), paragraph(t("account.invited")), form.element);
}
