// One project's settings: general, branding, signups, security and language, passkeys, SMS
// destinations and every rate limit (project-limits.ts), saved with one UpdateProject (a
// violation lands on its field); and, for an admin, deletion (project-delete.ts).
import type { Project } from "../../../../gen/gatehouse/account/v1/projects_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import { deleteForm } from "./project-delete.js";
import { limitGroups, limitsOf } from "./project-limits.js";
import { passkeyGroup, smsGroup } from "./project-security.js";
import type { ConsoleContext } from "./shell.js";
import { note } from "./ui.js";

const LOCALES: Array<[string, string]> = [
  ["en", "English"],
  ["es", "Español"],
  ["fr", "Français"],
  ["de", "Deutsch"],
  ["ar", "العربية"],
];

export function showProjectSettings(ctx: ConsoleContext, project: Project): Promise<void> {
  ctx.title(project.name);
  const saved = note("");
  const form = settingsForm(project);
  let hadSmsCodes = project.smsCountryCodes.length > 0;
  let rpId = project.passkeyRpId;
  form.onSubmit(async () => {
    // "Saved." belongs to the last save: left up while this one runs or fails, it would claim it.
    saved.textContent = "";
    // A "+44" is what people write; the API wants the calling code's digits.
    const smsCountryCodes = form.list("sms_country_codes").map((code) => code.replace(/^\+/, ""));
    const newRpId = form.value("passkey_rp_id").toLowerCase();
    const updated = await ctx.client.updateProject({
      id: project.id,
      name: form.value("name"),
      description: form.value("description"),
      allowedOrigins: form.list("allowed_origins"),
      redirectUrl: form.value("redirect_url"),
      tokenExpiry: form.number("token_expiry"),
      refreshTokenExpiry: form.number("refresh_token_expiry"),
      sessionIdleTimeout: form.number("session_idle_timeout"),
      maxSessionsPerUser: form.number("max_sessions_per_user"),
      displayName: form.value("display_name"),
      logoUrl: form.value("logo_url"),
      accentColor: form.value("accent_color"),
      signups: form.value("signups"),
      signupEmailDomains: form.list("signup_email_domains"),
      signupMethods: form.checkedValues("signup_methods"),
      sendVerification: form.checked("send_verification"),
      revealEmailExists: form.checked("reveal_email_exists"),
      mfaRequired: form.checked("mfa_required"),
      botProtection: form.checked("bot_protection"),
      defaultLocale: form.value("default_locale"),
      // Sent only when changed: the audit log's project.updated lists the fields sent, and a new
      // id is one to notice there (passkeys made under the old one stop working).
      passkeyRpId: newRpId === rpId ? undefined : newRpId,
      passkeyUserVerification: form.value("passkey_user_verification"),
      passkeyAttestation: form.value("passkey_attestation"),
      // An empty list means "unchanged" to the API: emptying the field asks for a clear.
      smsCountryCodes,
      clearSmsCountryCodes: smsCountryCodes.length === 0 && hadSmsCodes,
      rateLimits: limitsOf(form),
    });
    hadSmsCodes = updated.smsCountryCodes.length > 0;
    rpId = updated.passkeyRpId;
    await ctx.reloadProjects();
    ctx.title(updated.name);
    saved.textContent = t("console.saved");
  });
  ctx.body.append(
    h("p", {}, t("console.project.loginId"), " ", h("code", {}, project.loginId), " · ", h("code", {}, project.id)),
    form.element,
    saved,
  );
  if (ctx.isAdmin) ctx.body.append(deleteForm(ctx, project));
  return Promise.resolve();
}

function settingsForm(project: Project): ConsoleForm {
  const form = new ConsoleForm("project-settings", t("console.save"));
  const number = (value: number | undefined) => (value === undefined ? "" : String(value));
  form.add(
    form.group(
      t("console.project.general"),
      form.text("name", t("console.name"), { value: project.name }),
      form.text("description", t("console.project.description"), { value: project.description }),
      form.text("allowed_origins", t("console.project.allowedOrigins"), {
        lines: true,
        value: project.allowedOrigins.join("\n"),
        hint: t("console.project.allowedOriginsHint"),
      }),
      form.text("redirect_url", t("console.project.redirectUrl"), { type: "url", value: project.redirectUrl }),
      form.text("token_expiry", t("console.project.tokenExpiry"), {
        type: "number",
        value: number(project.tokenExpiry),
      }),
      form.text("refresh_token_expiry", t("console.project.refreshTokenExpiry"), {
        type: "number",
        value: number(project.refreshTokenExpiry),
      }),
      form.text("session_idle_timeout", t("console.project.sessionIdleTimeout"), {
        type: "number",
        value: number(project.sessionIdleTimeout),
      }),
      form.text("max_sessions_per_user", t("console.project.maxSessions"), {
        type: "number",
        min: 1,
        max: 1000,
        value: number(project.maxSessionsPerUser),
      }),
    ),
    form.group(
      t("console.project.branding"),
      form.text("display_name", t("console.project.displayName"), { value: project.displayName }),
      form.text("logo_url", t("console.project.logoUrl"), { type: "url", value: project.logoUrl }),
      form.text("accent_color", t("console.project.accentColor"), {
        value: project.accentColor,
        hint: t("console.project.accentColorHint"),
      }),
    ),
    form.group(
      t("console.project.signups"),
      form.select(
        "signups",
        t("console.project.signupsWho"),
        [
          ["open", t("console.signups.open")],
          ["closed", t("console.signups.closed")],
          ["allowlist", t("console.signups.allowlist")],
        ],
        project.signups || "open",
      ),
      form.text("signup_email_domains", t("console.project.signupDomains"), {
        lines: true,
        value: project.signupEmailDomains.join("\n"),
        hint: t("console.project.signupDomainsHint"),
      }),
      form.choices(
        "signup_methods",
        t("console.project.signupMethods"),
        [
          ["password", t("console.method.password")],
          ["otp", t("console.method.otp")],
          ["magic_link", t("console.method.magicLink")],
          ["sso", t("console.method.sso")],
        ],
        project.signupMethods,
      ),
      form.checkbox("send_verification", t("console.project.sendVerification"), project.sendVerification),
      form.checkbox("reveal_email_exists", t("console.project.revealEmailExists"), project.revealEmailExists),
    ),
    form.group(
      t("console.project.security"),
      form.checkbox("mfa_required", t("console.project.mfaRequired"), project.mfaRequired),
      form.checkbox("bot_protection", t("console.project.botProtection"), project.botProtection),
      form.select("default_locale", t("console.project.defaultLocale"), LOCALES, project.defaultLocale || "en"),
    ),
    passkeyGroup(form, project),
    smsGroup(form, project),
    ...limitGroups(form, project.rateLimits),
  );
  return form;
}
