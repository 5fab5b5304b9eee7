import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { Project } from "../../domain/account.js";
import { ProjectEntity } from "../entities/project.entity.js";
import { translateUniqueViolation } from "../errors.js";
import type { Clock } from "../../domain/clock.js";

export function toProject(e: ProjectEntity): Project {
  return {
    id: e.id,
    organizationId: e.organizationId,
    loginId: e.loginId,
    name: e.name,
    description: e.description,
    tokenExpiry: e.tokenExpiry,
    refreshTokenExpiry: e.refreshTokenExpiry,
    mfaRequired: e.mfaRequired,
    sendVerification: e.sendVerification,
    allowedOrigins: [...e.allowedOrigins],
    redirectUrl: e.redirectUrl,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

/** A project's settings; ids and timestamps are the repository's to make. */
export type CreateProjectInput = Omit<Project, "id" | "organizationId" | "loginId" | "description" | "createdAt" | "updatedAt"> & {
  description?: string;
};

export function projectsRepository(manager: EntityManager, clock: Clock) {
  return {
    async create(organizationId: string, input: CreateProjectInput): Promise<Project> {
      const now = clock.now();
      const row: ProjectEntity = {
        id: newId("proj"),
        organizationId,
        loginId: newId("lp"),
        name: input.name,
        description: input.description ?? "",
        tokenExpiry: input.tokenExpiry,
        refreshTokenExpiry: input.refreshTokenExpiry,
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

    /** Its API keys go with it (ON DELETE CASCADE). False when absent or of another organization. */
    async delete(organizationId: string, id: string): Promise<boolean> {
      const result = await manager.delete(ProjectEntity, { organizationId, id });
      return (result.affected ?? 0) > 0;
    },
  };
}

export type ProjectsRepository = ReturnType<typeof projectsRepository>;
