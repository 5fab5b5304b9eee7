import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import {
  CreateProjectRequestSchema,
  CreateProjectResponseSchema,
  ListProjectsRequestSchema,
  ListProjectsResponseSchema,
  RateLimitsSchema,
  type RateLimits,
} from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { Project } from "../../domain/account.js";
import { validationFailed } from "../../domain/errors.js";
import { createProject } from "../../flows/projects/create-project.js";
import { listProjects } from "../../flows/projects/list-projects.js";
import { settingsOf, toProto } from "../../handlers/account/projects.js";
import type { Command } from "../command.js";
import { flag, integer, list, text, type Values } from "../options.js";
import { moreLine, PAGE_OPTIONS, PAGE_SYNOPSIS, pageFields, readPages } from "../paging.js";
import { checkedRequest, wireJson } from "../request.js";
import { organizationOption } from "../scope.js";

export const projectCommands: Command[] = [
  {
    name: "project list",
    synopsis: `--org ORG_ID ${PAGE_SYNOPSIS}`,
    options: { org: { type: "string" }, ...PAGE_OPTIONS },
    async run(ctx, values) {
      const request = checkedRequest(ListProjectsRequestSchema, pageFields(values));
      const organizationId = await organizationOption(ctx, values);
      const deps = await ctx.deps();
      const page = await readPages(values, request, (p) => listProjects(deps, organizationId, p));
      return {
        json: wireJson(ListProjectsResponseSchema, {
          data: page.data.map(toProto),
          nextCursor: page.nextCursor,
          hasMore: page.hasMore,
        }),
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
      "[--signup-email-domain DOMAIN...] [--signup-method password|otp|magic_link|sso...]",
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
      });
      const organizationId = await organizationOption(ctx, values);
      const deps = await ctx.deps();
      const project = await createProject(deps, organizationId, settingsOf(req), ctx.origin);
      return {
        json: wireJson(CreateProjectResponseSchema, toProto(project)),
        text: `created project ${projectLine(project)}`,
      };
    },
  },
];

function projectLine(p: Project): string {
  return `${p.id}  ${p.name}  login id ${p.loginId}  created ${p.createdAt.toISOString()}`;
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
