import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { RateLimits as RateLimitsMessage } from "../../../gen/gatehouse/account/v1/projects_pb.js";
import type { Project } from "../../domain/account.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { createProject } from "../../flows/projects/create-project.js";
import { deleteProject } from "../../flows/projects/delete-project.js";
import { getProject } from "../../flows/projects/get-project.js";
import { listProjects } from "../../flows/projects/list-projects.js";
import { updateProject } from "../../flows/projects/update-project.js";
import { effectiveRateLimits, overridesOf, type RateLimitOverrides } from "../../domain/rate-limits.js";
import { organizationOf } from "./organization-of.js";

/** ListProjects, CreateProject, GetProject, UpdateProject, DeleteProject. */
export function projectsHandlers(deps: FlowDeps) {
  return {
    async listProjects(req, ctx) {
      const page = await listProjects(deps, organizationOf(ctx), { limit: req.limit, cursor: req.cursor });
      return { data: page.data.map(toProto), nextCursor: page.nextCursor, hasMore: page.hasMore };
    },

    async createProject(req, ctx) {
      const project = await createProject(deps, organizationOf(ctx), settingsOf(req), auditOriginOf(ctx.values));
      return toProto(project);
    },

    async getProject(req, ctx) {
      return toProto(await getProject(deps, organizationOf(ctx), req.id));
    },

    async updateProject(req, ctx) {
      // Proto3 `optional` fields are undefined when absent: exactly "unchanged".
      const changes = { ...settingsOf(req), clearSmsCountryCodes: req.clearSmsCountryCodes };
      const project = await updateProject(deps, organizationOf(ctx), req.id, changes, auditOriginOf(ctx.values));
      return toProto(project);
    },

    async deleteProject(req, ctx) {
      return deleteProject(deps, organizationOf(ctx), req.id, auditOriginOf(ctx.values));
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}

/** The settings fields shared by CreateProject and UpdateProject, as the flows name them (the CLI's project create too). */
export function settingsOf<R extends { [K in SettingKey]?: unknown } & { rateLimits?: RateLimitsMessage }>(
  req: R,
): Pick<R, SettingKey> & { rateLimits?: RateLimitOverrides } {
  return {
    name: req.name,
    description: req.description,
    allowedOrigins: req.allowedOrigins,
    redirectUrl: req.redirectUrl,
    tokenExpiry: req.tokenExpiry,
    refreshTokenExpiry: req.refreshTokenExpiry,
    sessionIdleTimeout: req.sessionIdleTimeout,
    rateLimits: overridesOf(req.rateLimits),
    mfaRequired: req.mfaRequired,
    sendVerification: req.sendVerification,
    displayName: req.displayName,
    logoUrl: req.logoUrl,
    accentColor: req.accentColor,
    smsCountryCodes: req.smsCountryCodes,
    botProtection: req.botProtection,
    maxSessionsPerUser: req.maxSessionsPerUser,
    revealEmailExists: req.revealEmailExists,
    signups: req.signups,
    signupEmailDomains: req.signupEmailDomains,
    signupMethods: req.signupMethods,
    passkeyRpId: req.passkeyRpId,
    passkeyUserVerification: req.passkeyUserVerification,
    passkeyAttestation: req.passkeyAttestation,
    defaultLocale: req.defaultLocale,
  };
}

type SettingKey =
  | "name"
  | "description"
  | "allowedOrigins"
  | "redirectUrl"
  | "tokenExpiry"
  | "refreshTokenExpiry"
  | "sessionIdleTimeout"
  | "mfaRequired"
  | "sendVerification"
  | "displayName"
  | "logoUrl"
  | "accentColor"
  | "smsCountryCodes"
  | "botProtection"
  | "maxSessionsPerUser"
  | "revealEmailExists"
  | "signups"
  | "signupEmailDomains"
  | "signupMethods"
  | "passkeyRpId"
  | "passkeyUserVerification"
  | "passkeyAttestation"
  | "defaultLocale";

// Field by field, so nothing but these (no organization id) ever reaches the wire.
export function toProto(p: Project) {
  return {
    id: p.id,
    loginId: p.loginId,
    name: p.name,
    description: p.description,
    tokenExpiry: p.tokenExpiry,
    refreshTokenExpiry: p.refreshTokenExpiry,
    sessionIdleTimeout: p.sessionIdleTimeout,
    rateLimits: effectiveRateLimits(p.rateLimits),
    mfaRequired: p.mfaRequired,
    sendVerification: p.sendVerification,
    allowedOrigins: p.allowedOrigins,
    redirectUrl: p.redirectUrl,
    displayName: p.displayName,
    logoUrl: p.logoUrl,
    accentColor: p.accentColor,
    smsCountryCodes: p.smsCountryCodes,
    botProtection: p.botProtection,
    maxSessionsPerUser: p.maxSessionsPerUser,
    revealEmailExists: p.revealEmailExists,
    signups: p.signups,
    signupEmailDomains: p.signupEmailDomains,
    signupMethods: p.signupMethods,
    passkeyRpId: p.passkeyRpId,
    passkeyUserVerification: p.passkeyUserVerification,
    passkeyAttestation: p.passkeyAttestation,
    defaultLocale: p.defaultLocale,
    createdAt: timestampFromDate(p.createdAt),
    updatedAt: timestampFromDate(p.updatedAt),
  };
}
