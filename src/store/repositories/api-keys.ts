import { IsNull, type EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { ApiKey, ApiKeyKind, Project } from "../../domain/account.js";
import type { PageRequest } from "../../domain/pagination.js";
import { ApiKeyEntity } from "../entities/api-key.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { keysetPage } from "../keyset.js";
import type { Clock } from "../../domain/clock.js";
import { toProject } from "./projects.js";

export function toApiKey(e: ApiKeyEntity): ApiKey {
  return {
    id: e.id,
    kind: e.kind,
    organizationId: e.organizationId,
    projectId: e.projectId,
    label: e.label,
    keyHint: e.keyHint,
    scopes: [...e.scopes],
    expiresAt: e.expiresAt,
    revokedAt: e.revokedAt,
    createdAt: e.createdAt,
  };
}

export interface CreateApiKeyInput {
  projectId: string;
  label: string;
  kind: ApiKeyKind;
  keyHash: string;
  keyHint: string;
  scopes: string[];
  expiresAt: Date | null;
}

export function apiKeysRepository(manager: EntityManager, clock: Clock) {
  return {
    /** A project of another organization fails the composite foreign key (23503), never links. */
    async create(organizationId: string, input: CreateApiKeyInput): Promise<ApiKey> {
      const row: ApiKeyEntity = {
        id: newId("key"),
        organizationId,
        projectId: input.projectId,
        label: input.label,
        kind: input.kind,
        keyHash: input.keyHash,
        keyHint: input.keyHint,
        scopes: [...input.scopes],
        expiresAt: input.expiresAt,
        revokedAt: null,
        createdAt: clock.now(),
      };
      await translateUniqueViolation(() => manager.insert(ApiKeyEntity, row));
      return toApiKey(row);
    },

    /**
     * The credential check of every Auth request. Read from the database each time, so a revoke
     * takes effect at once on every instance.
     */
    async findActive(keyHash: string, now: Date): Promise<{ apiKey: ApiKey; project: Project } | null> {
      const row = await manager
        .createQueryBuilder(ApiKeyEntity, "k")
        // Through the composite key: the project of the key's own organization.
        .innerJoinAndSelect("k.project", "p")
        .where("k.keyHash = :keyHash", { keyHash })
        .andWhere("k.revokedAt IS NULL")
        .andWhere("(k.expiresAt IS NULL OR k.expiresAt > :now)", { now })
        .getOne();
      if (!row) return null;
      return { apiKey: toApiKey(row), project: toProject(row.project!) };
    },

    /**
     * One page of unrevoked keys, newest first (`limit + 1` rows; see toPage), of the whole
     * organization or of one of its projects. Expired keys are listed: they show why a key fails.
     */
    async list(organizationId: string, filter: { projectId?: string }, page: PageRequest): Promise<ApiKey[]> {
      const qb = manager
        .createQueryBuilder(ApiKeyEntity, "k")
        .where("k.organizationId = :organizationId", { organizationId })
        .andWhere("k.revokedAt IS NULL");
      if (filter.projectId !== undefined) qb.andWhere("k.projectId = :projectId", { projectId: filter.projectId });
      const rows = await keysetPage(qb, "k", page).getMany();
      return rows.map(toApiKey);
    },

    /**
     * Revokes a key that is not revoked yet, in one statement, so of two racing revokes exactly
     * one wins. False when absent, of another organization or already revoked.
     */
    async revokeActive(organizationId: string, id: string, now: Date): Promise<boolean> {
      const result = await manager.update(
        ApiKeyEntity,
        { organizationId, id, revokedAt: IsNull() },
        { revokedAt: now },
      );
      return (result.affected ?? 0) > 0;
    },

    /** The project of one of the organization's keys (revoked ones included), for the audit log. */
    async projectOf(organizationId: string, id: string): Promise<string | undefined> {
      return (await manager.findOneBy(ApiKeyEntity, { organizationId, id }))?.projectId;
    },

    /** Whether the organization has (or had: revoked keys count) a key with this id. */
    async exists(organizationId: string, id: string): Promise<boolean> {
      return manager.existsBy(ApiKeyEntity, { organizationId, id });
    },
  };
}

export type ApiKeysRepository = ReturnType<typeof apiKeysRepository>;
