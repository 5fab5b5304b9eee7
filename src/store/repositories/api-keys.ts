import { IsNull, type EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { ApiKey, ApiKeyKind, Project } from "../../domain/account.js";
import type { PageRequest } from "../../domain/pagination.js";
import { ApiKeyEntity } from "../entities/api-key.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { keysetTail } from "../keyset.js";
import { empty, entityColumns, oneOf, sql, statements } from "../sql/index.js";
import type { Clock } from "../../domain/clock.js";
import { PROJECT, toProject } from "./projects.js";

const KEY = entityColumns(ApiKeyEntity, { narrow: { kind: oneOf("secret", "publishable") } });

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
  const run = statements(manager);
  const key = KEY.on(manager);
  const k = key.joined("k");
  const p = PROJECT.on(manager).joined("p");
  const keyAndProject = (r: unknown) => ({ apiKey: toApiKey(k.decode(r)), project: toProject(p.decode(r)) });
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
      // Through the composite key: the project of the key's own organization.
      return run.first(
        sql`SELECT ${k.list}, ${p.list}
            FROM api_keys k JOIN projects p ON p.organization_id = k.organization_id AND p.id = k.project_id
            WHERE k.key_hash = ${keyHash} AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ${now})`,
        keyAndProject,
      );
    },

    /**
     * One page of unrevoked keys, newest first (`limit + 1` rows; see toPage), of the whole
     * organization or of one of its projects. Expired keys are listed: they show why a key fails.
     */
    async list(organizationId: string, filter: { projectId?: string }, page: PageRequest): Promise<ApiKey[]> {
      const inProject = filter.projectId === undefined ? empty : sql` AND project_id = ${filter.projectId}`;
      const rows = await run.rows(
        sql`SELECT ${key.list} FROM api_keys
            WHERE organization_id = ${organizationId} AND revoked_at IS NULL${inProject}${keysetTail(page)}`,
        key.decode,
      );
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
