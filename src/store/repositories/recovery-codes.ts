import { IsNull, type EntityManager } from "typeorm";
import { RecoveryCodeEntity } from "../entities/recovery-code.entity.js";

// Single-use recovery codes, stored as HMACs under a key derived from the server secret (a
// code has about 50 bits: a bare hash could be brute-forced from a stolen table).
export function recoveryCodesRepository(manager: EntityManager) {
  return {
    /** Replaces the user's codes with a new set. */
    async replace(projectId: string, userId: string, codeHmacs: string[], now: Date): Promise<void> {
      await manager.delete(RecoveryCodeEntity, { projectId, userId });
      if (codeHmacs.length === 0) return;
      await manager.insert(
        RecoveryCodeEntity,
        codeHmacs.map((codeHmac) => ({ projectId, userId, codeHmac, usedAt: null, createdAt: now })),
      );
    },

    /** Spends one unused code; of two racing uses of a code, one wins (one conditional UPDATE). */
    async use(projectId: string, userId: string, codeHmac: string, now: Date): Promise<boolean> {
      const result = await manager.update(
        RecoveryCodeEntity,
        { projectId, userId, codeHmac, usedAt: IsNull() },
        { usedAt: now },
      );
      return (result.affected ?? 0) > 0;
    },

    async hasAny(projectId: string, userId: string): Promise<boolean> {
      return manager.exists(RecoveryCodeEntity, { where: { projectId, userId } });
    },

    async removeAll(projectId: string, userId: string): Promise<void> {
      await manager.delete(RecoveryCodeEntity, { projectId, userId });
    },
  };
}

export type RecoveryCodesRepository = ReturnType<typeof recoveryCodesRepository>;
