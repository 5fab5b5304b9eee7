// The project settings about how people prove who they are and where codes may go: passkeys
// (relying-party id, user verification, attestation; docs/passkeys.md) and the countries SMS
// may go to.
import type { Project } from "../../../../gen/gatehouse/account/v1/projects_pb.js";
import { t } from "../../shared/words.js";
import type { ConsoleForm } from "./form.js";

export function passkeyGroup(form: ConsoleForm, project: Project): HTMLFieldSetElement {
  return form.group(
    t("console.project.passkeys"),
    form.text("passkey_rp_id", t("console.project.passkeyRpId"), {
      value: project.passkeyRpId,
      hint: t("console.project.passkeyRpIdHint"),
    }),
    form.select(
      "passkey_user_verification",
      t("console.project.passkeyUserVerification"),
      [
        ["preferred", t("console.passkey.preferred")],
        ["required", t("console.passkey.required")],
      ],
      project.passkeyUserVerification || "preferred",
    ),
    form.select(
      "passkey_attestation",
      t("console.project.passkeyAttestation"),
      [
        ["none", t("console.passkey.none")],
        ["direct", t("console.passkey.direct")],
      ],
      project.passkeyAttestation || "none",
    ),
  );
}

export function smsGroup(form: ConsoleForm, project: Project): HTMLFieldSetElement {
  return form.group(
    t("console.project.sms"),
    form.text("sms_country_codes", t("console.project.smsCountryCodes"), {
      lines: true,
      value: project.smsCountryCodes.join("\n"),
      hint: t("console.project.smsCountryCodesHint"),
    }),
  );
}
