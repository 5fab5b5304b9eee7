// One project's settings: general, branding, limits, signup controls, MFA policy and default
// language, saved with one UpdateProject (a violation lands on its field); and, for an admin,
// deletion after typing the project's name.
import type { Project, RateLimits } from "../../../../gen/gatehouse/account/v1/account_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import { go } from "./route.js";
import type { ConsoleContext } from "./shell.js";
import { note } from "./ui.js";

/** The rate limits the console edits; the rest stay as the API sets them. */
const LIMITS: Array<[field: string, property: keyof RateLimits & string, words: string]> = [
  ["sign_in_failures_per_account", "signInFailuresPerAccount", "console.limits.signInFailures"],
  ["failures_per_ip", "failuresPerIp", "console.limits.failuresPerIp"],
  ["signups_per_ip", "signupsPerIp", "console.limits.signupsPerIp"],
  ["sends_per_ip", "sendsPerIp", "console.limits.sendsPerIp"],
  ["window_seconds", "windowSeconds", "console.limits.windowSeconds"],
];

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
  form.onSubmit(async () => {
    const limits: Record<string, number> = {};
    for (const [field, property] of LIMITS) {
      const value = form.number(`rate_limits.${field}`);
      if (value !== undefined) limits[property] = value;
    }
    const updated = await ctx.client.updateProject({
      id: project.id,
      name: form.value("name"),
      description: form.value("description"),
      allowedOrigins: form.list("allowed_origins"),
      redirectUrl: form.value("redirect_url"),
      tokenExpiry: form.number("token_expiry"),
      refreshTokenExpiry: form.number("refresh_token_expiry"),
      sessionIdleTimeout: form.number("session_idle_timeout"),
      displayName: form.value("display_name"),
      logoUrl: form.value("logo_url"),
      accentColor: form.value("accent_color"),
      maxSessionsPerUser: form.number("max_sessions_per_user"),
      rateLimits: limits,
      signups: form.value("signups"),
      signupEmailDomains: form.list("signup_email_domains"),
      signupMethods: form.checkedValues("signup_methods"),
      mfaRequired: form.checked("mfa_required"),
      defaultLocale: form.value("default_locale"),
    });
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
      t("console.project.limits"),
      form.text("max_sessions_per_user", t("console.project.maxSessions"), {
        type: "number",
        value: number(project.maxSessionsPerUser),
      }),
      ...LIMITS.map(([field, property, words]) =>
        form.text(`rate_limits.${field}`, t(words), {
          type: "number",
          value: number((project.rateLimits as unknown as Record<string, number> | undefined)?.[property]),
        }),
      ),
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
    ),
    form.group(
      t("console.project.security"),
      form.checkbox("mfa_required", t("console.project.mfaRequired"), project.mfaRequired),
      form.select("default_locale", t("console.project.defaultLocale"), LOCALES, project.defaultLocale || "en"),
    ),
  );
  return form;
}

function deleteForm(ctx: ConsoleContext, project: Project): HTMLElement {
  const form = new ConsoleForm("delete-project", t("console.project.delete"), { danger: true });
  form.add(
    h("p", {}, t("console.project.deleteWarning")),
    form.text("confirm", t("console.project.typeName", { name: project.name })),
  );
  form.onSubmit(async () => {
    if (form.value("confirm") !== project.name) {
      form.fail(t("console.project.nameMismatch"), "confirm");
      return;
    }
    await ctx.client.deleteProject({ id: project.id });
    await ctx.reloadProjects();
    go({ section: "projects", project: "" });
  });
  return h(
    "section",
    { class: "danger-zone", "aria-labelledby": "delete-project-title" },
    h("h2", { id: "delete-project-title" }, t("console.project.delete")),
    form.element,
  );
}
