// Accepting an invitation (`/?type=invitation&token=…`): a new member chooses a password; an
// existing member identity proves itself with its current one. The page names the organization
// and the inviter as the mail did (the server looked the token up: AccountConfig.invitation),
// and a spent link says so at once, with what to do instead.
import type { AccountConfig } from "../shared/config.js";
import { accountClient } from "../shared/client.js";
import { alertParagraph, footer, link, paragraph, showView } from "../shared/dom.js";
import { explain } from "../shared/errors.js";
import { Form } from "../shared/form.js";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { showMemberSecondStep, type SecondStepDone } from "./console/mfa-sign-in.js";
import { showConsole } from "./console/shell.js";
import { isolate, t } from "../shared/words.js";

export function showInvitation(token: string | null, config: AccountConfig): void {
  const shown = config.invitation;
  if (!token || shown === null) return showSpentInvitation();
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
    let answer;
    try {
      answer = await accountClient().acceptInvitation({ token, password: form.raw("password") });
    } catch (error) {
      // Spent since the page opened (accepted in another tab, replaced, expired).
      if (explain(error).reason === "INVALID_INVITATION") return showSpentInvitation();
      throw error;
    }
    // Accepting signs in for this tab only: "Stay signed in" is asked at the sign-in form.
    const open = (done: SecondStepDone) =>
      showConsole({
        token: done.managementToken,
        email: answer.email,
        organizationId: done.organizationId,
        organizationName: shown?.organization_name ?? "",
        expiresAt: done.expiresAt ? timestampDate(done.expiresAt).getTime() : 0,
      });
    // A second factor to give, or to set up first (an organization that requires one).
    if (answer.mfaRequired) return showMemberSecondStep(answer, open);
    await open(answer);
  });
  showView(t("title.accountInvitation"), paragraph(invitedWords(shown)), form.element);
}

function invitedWords(shown: AccountConfig["invitation"]): string {
  if (!shown) return t("account.invited");
  const organization = isolate(shown.organization_name);
  return shown.inviter_email
    ? t("account.invitedBy", { inviter: isolate(shown.inviter_email), organization })
    : t("account.invitedTo", { organization });
}

/**
 * A used, replaced or expired invitation: only the organization's administrators can send a
 * new one (an invitee has no way to ask Gatehouse for it), and one who accepted it already
 * signs in; the view says both rather than leaving a form that cannot work.
 */
function showSpentInvitation(): void {
  showView(
    t("title.accountInvitation"),
    alertParagraph(t("reason.INVALID_INVITATION")),
    paragraph(t("account.invitationSpentHelp")),
    footer(link(t("common.signIn"), "/")),
  );
}
