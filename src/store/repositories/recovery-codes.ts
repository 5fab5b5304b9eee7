import type { EntityManager } from "typeorm";

// Single-use recovery codes, stored as HMACs under a key derived from the server secret (a
// code has about 50 bits: a bare hash could be brute-forced from a stolen table).
export function recoveryCodesRepository(manager: EntityManager) {
  return {
    /** Replaces the user's codes with a new set. */
    async replace(projectId: string, userId: string, codeHmacs: string[], now: Date): Promise<void> {
      await manager.query(`DELETE FROM recovery_codes WHERE project_id = $1 AND user_id = $2`, [projectId, userId]);
      await manager.query(
        `INSERT INTO recovery_codes (project_id, user_id, code_hmac, created_at) SELECT $1, $2, unnest($3::text[]), $4`,
        [projectId, userId, codeHmacs, now],
      );
    },

    /** Spends one unused code; of two racing uses of a code, one wins. */
    async use(projectId: string, userId: string, codeHmac: string, now: Date): Promise<boolean> {
      const result = (await manager.query(
        `UPDATE recovery_codes SET used_at = $4 WHERE project_id = $1 AND user_id = $2 AND code_hmac = $3 AND used_at IS NULL RETURNING code_hmac`,
        [projectId, userId, codeHmac, now],
      )) as [unknown[], number];
      return (result[1] ?? 0) > 0;
    },

    async hasAny(projectId: string, userId: string): Promise<boolean> {
      const rows = (await manager.query(`SELECT 1 FROM recovery_codes WHERE project_id = $1 AND user_id = $2 LIMIT 1`, [projectId, userId])) as unknown[];
      return rows.length > 0;
    },

    async removeAll(projectId: string, userId: string): Promise<void> {
      await manager.query(`DELETE FROM recovery_codes WHERE project_id = $1 AND user_id = $2`, [projectId, userId]);
    },
  };
}

export type RecoveryCodesRepository = ReturnType<typeof recoveryCodesRepository>;
