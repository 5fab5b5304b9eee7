import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import {
  CreateProjectRequestSchema,
  CreateProjectResponseSchema,
  ListProjectsRequestSchema,
  ListProjectsResponseSchema,
  RateLimitsSchema,
  UpdateProjectRequestSchema,
  UpdateProjectResponseSchema,
  type Project,
  type RateLimits,
} from "../../../gen/gatehouse/account/v1/projects_pb.js";
import { validationFailed } from "../../domain/errors.js";
import type { Command } from "../command.js";
import { usageError } from "../errors.js";
import { flag, integer, list, text, type Values } from "../options.js";
import { moreLine, PAGE_OPTIONS, PAGE_SYNOPSIS, pageFields, pageJson, readPages } from "../paging.js";
import { checkedRequest, iso } from "../request.js";
import { organizationOption, projectOption } from "../scope.js";

export const projectCommands: Command[] = [
  {
    name: "project list",
    synopsis: `--org ORG_ID ${PAGE_SYNOPSIS}`,
    options: { org: { type: "string" }, ...PAGE_OPTIONS },
    async run(ctx, values) {
      const request = checkedRequest(ListProjectsRequestSchema, pageFields(values));
      const account = await ctx.account(await organizationOption(ctx, values));
      const page = await readPages(values, request, (p) => account.listProjects({ ...request, ...p }));
      return {
        json: pageJson(ctx, ListProjectsResponseSchema, page),
        text: [...page.data.map(projectLine), ...moreLine(page)].join("\n") || "no projects",
      };
    },
  },
  {
    name: "project create",
    synopsis:
      "--org ORG_ID --name NAME --allowed-origin ORIGIN... --redirect-url URL [--description TEXT] [--token-expiry SECONDS] " +
      "[--refresh-token-expiry SECONDS] [--session-idle-timeout SECONDS] [--mfa-required] [--send-verification] [--rate-limits JSON] " +
      "[--display-name NAME] [--logo-url URL] [--accent-color #RRGGBB] [--signups open|closed|allowlist] " +
      "[--signup-email-domain DOMAIN...] [--signup-method password|otp|magic_link|sso...] [--default-locale TAG] " +
      "[--passkey-rp-id DOMAIN] [--passkey-user-verification preferred|required] [--passkey-attestation none|direct]",
    options: {
      org: { type: "string" },
      name: { type: "string" },
      description: { type: "string" },
      "allowed-origin": { type: "string", multiple: true },
      "redirect-url": { type: "string" },
      "token-expiry": { type: "string" },
      "refresh-token-expiry": { type: "string" },
      "session-idle-timeout": { type: "string" },
      "mfa-required": { type: "boolean" },
      "send-verification": { type: "boolean" },
      "rate-limits": { type: "string" },
      "display-name": { type: "string" },
      "logo-url": { type: "string" },
      "accent-color": { type: "string" },
      signups: { type: "string" },
      "signup-email-domain": { type: "string", multiple: true },
      "signup-method": { type: "string", multiple: true },
      "passkey-rp-id": { type: "string" },
      "passkey-user-verification": { type: "string" },
      "passkey-attestation": { type: "string" },
      "default-locale": { type: "string" },
    },
    async run(ctx, values) {
      const req = checkedRequest(CreateProjectRequestSchema, {
        name: text(values, "name") ?? "",
        description: text(values, "description") ?? "",
        allowedOrigins: list(values, "allowed-origin"),
        redirectUrl: text(values, "redirect-url") ?? "",
        tokenExpiry: integer(values, "token-expiry", "token_expiry"),
        refreshTokenExpiry: integer(values, "refresh-token-expiry", "refresh_token_expiry"),
        sessionIdleTimeout: integer(values, "session-idle-timeout", "session_idle_timeout"),
        mfaRequired: flag(values, "mfa-required"),
        sendVerification: flag(values, "send-verification"),
        rateLimits: rateLimitsOption(values),
        displayName: text(values, "display-name") ?? "",
        logoUrl: text(values, "logo-url") ?? "",
        accentColor: text(values, "accent-color") ?? "",
        signups: text(values, "signups") ?? "",
        signupEmailDomains: list(values, "signup-email-domain"),
        signupMethods: list(values, "signup-method"),
        passkeyRpId: text(values, "passkey-rp-id") ?? "",
        passkeyUserVerification: text(values, "passkey-user-verification") ?? "",
        passkeyAttestation: text(values, "passkey-attestation") ?? "",
        defaultLocale: text(values, "default-locale") ?? "",
      });
      const account = await ctx.account(await organizationOption(ctx, values));
      const project = await account.createProject(req);
      return {
        json: ctx.restJson(CreateProjectResponseSchema, project),
        text: `created project ${projectLine(project)}`,
      };
    },
  },
  {
    name: "project update",
    synopsis:
      "--project PROJECT_ID [--name NAME] [--description TEXT] [--allowed-origin ORIGIN...] [--redirect-url URL] " +
      "[--token-expiry SECONDS] [--refresh-token-expiry SECONDS] [--session-idle-timeout SECONDS] " +
      "[--mfa-required | --no-mfa-required] [--send-verification | --no-send-verification] [--rate-limits JSON] " +
      "[--display-name NAME] [--logo-url URL] [--accent-color #RRGGBB] [--sms-country-code CODE... | --clear-sms-country-codes] " +
      "[--bot-protection | --no-bot-protection] [--max-sessions-per-user N] [--reveal-email-exists | --no-reveal-email-exists] " +
      "[--signups open|closed|allowlist] [--signup-email-domain DOMAIN...] [--signup-method password|otp|magic_link|sso...] " +
      "[--default-locale TAG] [--passkey-rp-id DOMAIN] [--passkey-user-verification preferred|required] " +
      "[--passkey-attestation none|direct] [--org ORG_ID]",
    options: {
      org: { type: "string" },
      project: { type: "string" },
      name: { type: "string" },
      description: { type: "string" },
      "allowed-origin": { type: "string", multiple: true },
      "redirect-url": { type: "string" },
      "token-expiry": { type: "string" },
      "refresh-token-expiry": { type: "string" },
      "session-idle-timeout": { type: "string" },
      ...toggleOptions("mfa-required", "send-verification", "bot-protection", "reveal-email-exists"),
      "rate-limits": { type: "string" },
      "display-name": { type: "string" },
      "logo-url": { type: "string" },
      "accent-color": { type: "string" },
      "sms-country-code": { type: "string", multiple: true },
      "clear-sms-country-codes": { type: "boolean" },
      "max-sessions-per-user": { type: "string" },
      signups: { type: "string" },
      "signup-email-domain": { type: "string", multiple: true },
      "signup-method": { type: "string", multiple: true },
      "passkey-rp-id": { type: "string" },
      "passkey-user-verification": { type: "string" },
      "passkey-attestation": { type: "string" },
      "default-locale": { type: "string" },
    },
    async run(ctx, values) {
      if (text(values, "project") === undefined)
        throw usageError("--project is required: the project's id (`gatehouse project list --org ID` shows them)");
      const changed = Object.keys(values).filter((name) => !["org", "project", "json", "help"].includes(name));
      if (changed.length === 0) throw usageError("nothing to change: give at least one setting to change");
      // As UpdateProject: an absent option leaves its setting as it is (an empty list too).
      const req = checkedRequest(UpdateProjectRequestSchema, {
        id: text(values, "project") ?? "",
        name: text(values, "name"),
        description: text(values, "description"),
        allowedOrigins: list(values, "allowed-origin"),
        redirectUrl: text(values, "redirect-url"),
        tokenExpiry: integer(values, "token-expiry", "token_expiry"),
        refreshTokenExpiry: integer(values, "refresh-token-expiry", "refresh_token_expiry"),
        sessionIdleTimeout: integer(values, "session-idle-timeout", "session_idle_timeout"),
        mfaRequired: toggle(values, "mfa-required"),
        sendVerification: toggle(values, "send-verification"),
        rateLimits: rateLimitsOption(values),
        displayName: text(values, "display-name"),
        logoUrl: text(values, "logo-url"),
        accentColor: text(values, "accent-color"),
        smsCountryCodes: list(values, "sms-country-code"),
        clearSmsCountryCodes: flag(values, "clear-sms-country-codes"),
        botProtection: toggle(values, "bot-protection"),
        maxSessionsPerUser: integer(values, "max-sessions-per-user", "max_sessions_per_user"),
        revealEmailExists: toggle(values, "reveal-email-exists"),
        signups: text(values, "signups"),
        signupEmailDomains: list(values, "signup-email-domain"),
        signupMethods: list(values, "signup-method"),
        passkeyRpId: text(values, "passkey-rp-id"),
        passkeyUserVerification: text(values, "passkey-user-verification"),
        passkeyAttestation: text(values, "passkey-attestation"),
        defaultLocale: text(values, "default-locale"),
      });
      const { organizationId } = await projectOption(ctx, values);
      const updated = await (await ctx.account(organizationId)).updateProject(req);
      return {
        json: ctx.restJson(UpdateProjectResponseSchema, updated),
        text: `updated project ${projectLine(updated)}\nchanged: ${[...new Set(changed.map(settingName))].join(", ")}`,
      };
    },
  },
];

function projectLine(p: Pick<Project, "id" | "name" | "loginId" | "createdAt">): string {
  return `${p.id}  ${p.name}  login id ${p.loginId}  created ${iso(p.createdAt)}`;
}

/** `--rate-limits '{"signups_per_ip": 5}'`: the RateLimits message in its JSON form. */
function rateLimitsOption(values: Values): RateLimits | undefined {
  const json = text(values, "rate-limits");
  if (json === undefined) return undefined;
  try {
    return fromJson(RateLimitsSchema, JSON.parse(json) as JsonValue);
  } catch (error) {
    throw validationFailed([
      {
        field: "rate_limits",
        description: `must be a RateLimits JSON object (${error instanceof Error ? error.message : String(error)})`,
      },
    ]);
  }
}

/** `--mfa-required` and `--no-mfa-required`, …: a setting UpdateProject may turn on or off. */
function toggleOptions(...names: string[]): Record<string, { type: "boolean" }> {
  return Object.fromEntries(
    names.flatMap((n) => [[n, { type: "boolean" }] as const, [`no-${n}`, { type: "boolean" }] as const]),
  );
}

/** True, false, or absent (unchanged); both at once is a usage error. */
function toggle(values: Values, name: string): boolean | undefined {
  const on = flag(values, name);
  const off = flag(values, `no-${name}`);
  if (on && off) throw usageError(`--${name} and --no-${name} contradict each other: give one`);
  return on ? true : off ? false : undefined;
}

/** The API field an option of `project update` sets (`--no-mfa-required`: mfa_required). */
function settingName(option: string): string {
  const field = option.replace(/^no-/, "").replaceAll("-", "_");
  const plural: Record<string, string> = {
    allowed_origin: "allowed_origins",
    sms_country_code: "sms_country_codes",
    clear_sms_country_codes: "sms_country_codes",
    signup_email_domain: "signup_email_domains",
    signup_method: "signup_methods",
  };
  return plural[field] ?? field;
}
