import type { EntityManager } from "typeorm";
import type { SecretBox } from "../../crypto/secret-box.js";
import type { Clock } from "../../domain/clock.js";
import type { FailurePolicy, Hook, HookKind } from "../../domain/hooks.js";
import { HookEntity } from "../entities/hook.entity.js";
import { entityColumns, sql, statements } from "../sql/index.js";

const HOOK = entityColumns(HookEntity);

function toHook(e: HookEntity): Hook {
  return {
    projectId: e.projectId,
    kind: e.kind,
    url: e.url,
    failurePolicy: e.failurePolicy,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

const sealedWith = (projectId: string, kind: HookKind) => `${projectId}/${kind}`;

export function hooksRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
  const hook = HOOK.on(manager);
  return {
    async list(organizationId: string, projectId: string): Promise<Hook[]> {
      const rows = await manager.find(HookEntity, { where: { organizationId, projectId }, order: { kind: "ASC" } });
      return rows.map(toHook);
    },

    /**
     * Creates or replaces the project's hook of `kind`. A new hook, or `secret` given, stores
     * that secret; a replaced hook keeps its secret otherwise. Answers whether it is new.
     */
    async set(
      organizationId: string,
      projectId: string,
      kind: HookKind,
      input: { url: string; failurePolicy: FailurePolicy; secret: string; rotate: boolean },
      secrets: Pick<SecretBox, "seal">,
    ): Promise<{ hook: Hook; created: boolean }> {
      const now = clock.now();
      // Locked until the caller's transaction ends: two replacements of one hook queue.
      const existing = await run.first(
        sql`SELECT ${hook.list} FROM hooks WHERE project_id = ${projectId} AND kind = ${kind} FOR UPDATE`,
        hook.decode,
      );
      const row: HookEntity = {
        projectId,
        kind,
        organizationId,
        url: input.url,
        failurePolicy: input.failurePolicy,
        secretSealed:
          existing && !input.rotate ? existing.secretSealed : secrets.seal(input.secret, sealedWith(projectId, kind)),
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      };
      await manager.save(HookEntity, row);
      return { hook: toHook(row), created: existing === null };
    },

    async delete(organizationId: string, projectId: string, kind: HookKind): Promise<boolean> {
      const result = await manager.delete(HookEntity, { organizationId, projectId, kind });
      return (result.affected ?? 0) > 0;
    },

    /** For a request of the project (Authentication side): the hook with its secret, or null. */
    async getWithSecret(
      projectId: string,
      kind: HookKind,
      secrets: Pick<SecretBox, "open">,
    ): Promise<(Hook & { secret: string }) | null> {
      const row = await manager.findOneBy(HookEntity, { projectId, kind });
      if (!row) return null;
      return { ...toHook(row), secret: secrets.open(row.secretSealed, sealedWith(projectId, kind)).toString("utf8") };
    },
  };
}

export type HooksRepository = ReturnType<typeof hooksRepository>;
