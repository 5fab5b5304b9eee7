import type { EntityManager } from "typeorm";
import type { MfaFactor, MfaMethod } from "../../domain/mfa.js";

interface FactorRow {
  id: string;
  user_id: string;
  method: MfaMethod;
  secret_sealed: string | null;
  phone: string | null;
  confirmed_at: Date | null;
  pending_code_hmac: string | null;
  pending_code_expires_at: Date | null;
  attempts: number;
  created_at: Date;
}

const COLUMNS = "id, user_id, method, secret_sealed, phone, confirmed_at, pending_code_hmac, pending_code_expires_at, attempts, created_at";

function toFactor(r: FactorRow): MfaFactor {
  return {
    id: r.id,
    userId: r.user_id,
    method: r.method,
    secretSealed: r.secret_sealed,
    phone: r.phone,
    confirmedAt: r.confirmed_at ? new Date(r.confirmed_at) : null,
    pendingCodeHmac: r.pending_code_hmac,
    pendingCodeExpiresAt: r.pending_code_expires_at ? new Date(r.pending_code_expires_at) : null,
    attempts: r.attempts,
    createdAt: new Date(r.created_at),
  };
}

// A user's MFA factors, one per method. Confirming or removing a factor also rewrites
// users.mfa_methods in the same statement, so the user row never disagrees with its factors.
export function mfaFactorsRepository(manager: EntityManager) {
  const syncUser = `UPDATE users SET mfa_methods = ARRAY(
      SELECT method FROM mfa_factors WHERE project_id = $1 AND user_id = $2 AND confirmed_at IS NOT NULL ORDER BY method),
      updated_at = $3
    WHERE project_id = $1 AND id = $2`;
  return {
    async list(projectId: string, userId: string): Promise<MfaFactor[]> {
      const rows = (await manager.query(`SELECT ${COLUMNS} FROM mfa_factors WHERE project_id = $1 AND user_id = $2 ORDER BY method`, [
        projectId,
        userId,
      ])) as FactorRow[];
      return rows.map(toFactor);
    },

    /**
     * Starts (or restarts) an enrollment: the pending factor of that method is replaced. A
     * confirmed factor of the method is left alone and the answer is false.
     */
    async startPending(
      projectId: string,
      input: { id: string; userId: string; method: MfaMethod; secretSealed: string | null; phone: string | null; codeHmac: string | null; codeExpiresAt: Date | null; now: Date },
    ): Promise<boolean> {
      const rows = (await manager.query(
        `INSERT INTO mfa_factors (id, project_id, user_id, method, secret_sealed, phone, pending_code_hmac, pending_code_expires_at, attempts, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9)
         ON CONFLICT (project_id, user_id, method) DO UPDATE
           SET id = EXCLUDED.id, secret_sealed = EXCLUDED.secret_sealed, phone = EXCLUDED.phone,
               pending_code_hmac = EXCLUDED.pending_code_hmac, pending_code_expires_at = EXCLUDED.pending_code_expires_at,
               attempts = 0, last_step = NULL, created_at = EXCLUDED.created_at
           WHERE mfa_factors.confirmed_at IS NULL
         RETURNING id`,
        [input.id, projectId, input.userId, input.method, input.secretSealed, input.phone, input.codeHmac, input.codeExpiresAt, input.now],
      )) as unknown[];
      return rows.length > 0;
    },

    /** The pending factor, locked until the transaction ends; the newest when `method` is absent. */
    async lockPending(projectId: string, userId: string, method?: MfaMethod): Promise<MfaFactor | null> {
      const rows = (await manager.query(
        `SELECT ${COLUMNS} FROM mfa_factors WHERE project_id = $1 AND user_id = $2 AND confirmed_at IS NULL
           AND ($3::text IS NULL OR method = $3) ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
        [projectId, userId, method ?? null],
      )) as FactorRow[];
      return rows[0] ? toFactor(rows[0]) : null;
    },

    /** A wrong code against a pending enrollment; at `maxAttempts` the enrollment is dropped. */
    async recordPendingFailure(projectId: string, id: string, maxAttempts: number): Promise<void> {
      const result = (await manager.query(
        `UPDATE mfa_factors SET attempts = attempts + 1 WHERE project_id = $1 AND id = $2 AND confirmed_at IS NULL RETURNING attempts`,
        [projectId, id],
      )) as [Array<{ attempts: number }>, number];
      if ((result[0]?.[0]?.attempts ?? 0) >= maxAttempts) {
        await manager.query(`DELETE FROM mfa_factors WHERE project_id = $1 AND id = $2 AND confirmed_at IS NULL`, [projectId, id]);
      }
    },

    /** Makes a pending factor active, and the user's mfa_methods with it. */
    async confirm(projectId: string, userId: string, id: string, now: Date): Promise<void> {
      await manager.query(
        `UPDATE mfa_factors SET confirmed_at = $4, pending_code_hmac = NULL, pending_code_expires_at = NULL, attempts = 0
         WHERE project_id = $1 AND user_id = $2 AND id = $3`,
        [projectId, userId, id, now],
      );
      await manager.query(syncUser, [projectId, userId, now]);
    },

    /**
     * Accepts TOTP time step `step` for the factor unless that step or a later one was accepted
     * before: one conditional UPDATE, so a code is accepted once, whichever process sees it.
     */
    async acceptStep(projectId: string, id: string, step: number): Promise<boolean> {
      const result = (await manager.query(
        `UPDATE mfa_factors SET last_step = $3 WHERE project_id = $1 AND id = $2 AND (last_step IS NULL OR last_step < $3) RETURNING id`,
        [projectId, id, step],
      )) as [unknown[], number];
      return (result[1] ?? 0) > 0;
    },

    /** Removes a confirmed factor; false when the user has none of that method. */
    async removeConfirmed(projectId: string, userId: string, method: MfaMethod, now: Date): Promise<boolean> {
      const result = (await manager.query(
        `DELETE FROM mfa_factors WHERE project_id = $1 AND user_id = $2 AND method = $3 AND confirmed_at IS NOT NULL RETURNING id`,
        [projectId, userId, method],
      )) as [unknown[], number];
      if ((result[1] ?? 0) === 0) return false;
      await manager.query(syncUser, [projectId, userId, now]);
      return true;
    },
  };
}

export type MfaFactorsRepository = ReturnType<typeof mfaFactorsRepository>;
