import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { Project } from "../../domain/account.js";
import { withProjectDefaults, type DefaultedSetting } from "../../domain/project-defaults.js";
import type { PageRequest } from "../../domain/pagination.js";
import { IssuedLoginIdEntity } from "../entities/issued-login-id.entity.js";
import { ProjectEntity } from "../entities/project.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { keysetTail } from "../keyset.js";
import { entityColumns, joinSql, jsonObject, raw, sql, statements, type Column, type Statement } from "../sql/index.js";
import type { Clock } from "../../domain/clock.js";
import type { RateLimitOverrides } from "../../domain/rate-limits.js";

export function toProject(e: ProjectEntity): Project {
  return {
    id: e.id,
    organizationId: e.organizationId,
    loginId: e.loginId,
    name: e.name,
    description: e.description,
    tokenExpiry: e.tokenExpiry,
    refreshTokenExpiry: e.refreshTokenExpiry,
    sessionIdleTimeout: e.sessionIdleTimeout,
    rateLimits: { ...e.rateLimits },
    mfaRequired: e.mfaRequired,
    sendVerification: e.sendVerification,
    allowedOrigins: [...e.allowedOrigins],
    redirectUrl: e.redirectUrl,
    displayName: e.displayName,
    logoUrl: e.logoUrl,
    accentColor: e.accentColor,
    smsCountryCodes: [...e.smsCountryCodes],
    botProtection: e.botProtection,
    maxSessionsPerUser: e.maxSessionsPerUser,
    revealEmailExists: e.revealEmailExists,
    signups: e.signups,
    signupEmailDomains: [...e.signupEmailDomains],
    signupMethods: [...e.signupMethods],
    passkeyRpId: e.passkeyRpId,
    passkeyUserVerification: e.passkeyUserVerification,
    passkeyAttestation: e.passkeyAttestation,
    defaultLocale: e.defaultLocale,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

/**
 * A project's settings; ids and timestamps are the repository's to make, and a setting left
 * out takes its default (domain/project-defaults.ts).
 */
type OptionalSetting = Exclude<DefaultedSetting, "description" | "sessionIdleTimeout">;

export type CreateProjectInput = Omit<
  Project,
  | "id"
  | "organizationId"
  | "loginId"
  | "description"
  | "sessionIdleTimeout"
  | "rateLimits"
  | OptionalSetting
  | "createdAt"
  | "updatedAt"
> &
  Partial<Pick<Project, OptionalSetting>> & {
    description?: string;
    /** Absent: every default. */
    rateLimits?: RateLimitOverrides;
    /** Absent: 0, off (the column's default too). */
    sessionIdleTimeout?: number;
  };

const CHANGEABLE = [
  "name",
  "description",
  "allowedOrigins",
  "redirectUrl",
  "tokenExpiry",
  "refreshTokenExpiry",
  "sessionIdleTimeout",
  "mfaRequired",
  "sendVerification",
  "displayName",
  "logoUrl",
  "accentColor",
  "smsCountryCodes",
  "botProtection",
  "maxSessionsPerUser",
  "revealEmailExists",
  "signups",
  "signupEmailDomains",
  "signupMethods",
  "passkeyRpId",
  "passkeyUserVerification",
  "passkeyAttestation",
  "defaultLocale",
] as const satisfies ReadonlyArray<keyof Project & keyof ProjectEntity>;

/**
 * The settings UpdateProject may change; an absent field stays as it is. `rateLimits` holds
 * only the limits to set, merged into those already set.
 */
export type ProjectChanges = Partial<Pick<Project, (typeof CHANGEABLE)[number]>> & { rateLimits?: RateLimitOverrides };

/** Shared with the statements that join a project (api-keys.ts). */
export const PROJECT = entityColumns(ProjectEntity, {
  narrow: { rateLimits: jsonObject as Column<Record<string, number>> },
});

export function projectsRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
  const project = PROJECT.on(manager);
  return {
    /**
     * Registers the login id first (issued_login_ids, which outlives projects), so a login id
     * is never issued twice: a collision is UniqueViolation("issued_login_ids_pkey").
     */
    async create(organizationId: string, input: CreateProjectInput): Promise<Project> {
      const now = clock.now();
      const id = newId("proj");
      const loginId = newId("lp");
      await translateUniqueViolation(() =>
        manager.insert(IssuedLoginIdEntity, { loginId, projectId: id, issuedAt: now }),
      );
      const row: ProjectEntity = {
        id,
        organizationId,
        loginId,
        name: input.name,
        ...withProjectDefaults(input),
        tokenExpiry: input.tokenExpiry,
        refreshTokenExpiry: input.refreshTokenExpiry,
        rateLimits: { ...input.rateLimits },
        mfaRequired: input.mfaRequired,
        sendVerification: input.sendVerification,
        allowedOrigins: [...input.allowedOrigins],
        redirectUrl: input.redirectUrl,
        createdAt: now,
        updatedAt: now,
      };
      await translateUniqueViolation(() => manager.insert(ProjectEntity, row));
      return toProject(row);
    },

    /** Another organization's project is simply not found. */
    async get(organizationId: string, id: string): Promise<Project | null> {
      const row = await manager.findOneBy(ProjectEntity, { organizationId, id });
      return row ? toProject(row) : null;
    },

    /**
     * By id alone, for a row that names its project before any credential does (the SSO
     * callback knows only its state, whose flow names the project).
     */
    async getByIdForFlow(id: string): Promise<Project | null> {
      const row = await manager.findOneBy(ProjectEntity, { id });
      return row ? toProject(row) : null;
    },

    /** By the public login id (JWKS, the browser SSO entry): no tenant to scope by yet. */
    async getByLoginId(loginId: string): Promise<Project | null> {
      const row = await manager.findOneBy(ProjectEntity, { loginId });
      return row ? toProject(row) : null;
    },

    /**
     * Like get, and holds a share lock until the transaction ends, so the project cannot be
     * deleted under a row being attached to it. Only inside db.transaction().
     */
    async getForShare(organizationId: string, id: string): Promise<Project | null> {
      const row = await run.first(
        sql`SELECT ${project.list} FROM projects WHERE organization_id = ${organizationId} AND id = ${id} FOR SHARE`,
        project.decode,
      );
      return row ? toProject(row) : null;
    },

    /** One page of the organization's projects, newest first (`limit + 1` rows; see toPage). */
    async list(organizationId: string, page: PageRequest): Promise<Project[]> {
      const rows = await run.rows(
        sql`SELECT ${project.list} FROM projects WHERE organization_id = ${organizationId}${keysetTail(page)}`,
        project.decode,
      );
      return rows.map(toProject);
    },

    /**
     * Sets only the given fields (never a read-modify-write, so concurrent updates of other
     * fields are not lost) and moves updated_at. Null when absent or of another organization.
     */
    async update(organizationId: string, id: string, changes: ProjectChanges): Promise<Project | null> {
      const sets: Statement[] = [];
      // Listed fields only: a wider object passed as changes can never touch ids or tenancy.
      for (const field of CHANGEABLE) {
        const value = changes[field];
        if (value !== undefined)
          sets.push(sql`${raw(project.names[field])} = ${Array.isArray(value) ? [...value] : value}`);
      }
      // Rate limits are merged in the statement (jsonb ||), so owners setting different limits keep both.
      if (changes.rateLimits) sets.push(sql`rate_limits = rate_limits || ${JSON.stringify(changes.rateLimits)}::jsonb`);
      sets.push(sql`updated_at = ${clock.now()}`);
      // One statement that answers the row as changed (RETURNING), not an update and a read.
      const row = await run.first(
        sql`UPDATE projects SET ${joinSql(sets, ", ")} WHERE organization_id = ${organizationId} AND id = ${id} RETURNING ${project.list}`,
        project.decode,
      );
      return row ? toProject(row) : null;
    },

    /**
     * Its API keys, signing keys and SSO connections go with it (ON DELETE CASCADE); its login
     * id stays registered. False when absent or of another organization.
     */
    async delete(organizationId: string, id: string): Promise<boolean> {
      const result = await manager.delete(ProjectEntity, { organizationId, id });
      return (result.affected ?? 0) > 0;
    },
  };
}

export type ProjectsRepository = ReturnType<typeof projectsRepository>;
