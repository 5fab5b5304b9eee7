import { IsNull, Not, type EntityManager } from "typeorm";
import { MFA_METHODS, type MfaFactor, type MfaMethod } from "../../domain/mfa.js";
import { MfaFactorEntity } from "../entities/mfa-factor.entity.js";
import { syncMfaMethods } from "./mfa-methods.js";
import { empty, entityColumns, int, oneOf, row, sql, statements, text } from "../sql/index.js";

// What a factor shows: its project is the caller's, its last TOTP step the verifier's alone.
const FACTOR = entityColumns(MfaFactorEntity, {
  omit: ["projectId", "lastStep"],
  narrow: { method: oneOf(...MFA_METHODS) },
});

function fromEntity(e: Omit<MfaFactorEntity, "projectId" | "lastStep">): MfaFactor {
  const {
    id,
    userId,
    method,
    secretSealed,
    phone,
    confirmedAt,
    pendingCodeHmac,
    pendingCodeExpiresAt,
    attempts,
    createdAt,
  } = e;
  return {
    id,
    userId,
    method,
    secretSealed,
    phone,
    confirmedAt,
    pendingCodeHmac,
    pendingCodeExpiresAt,
    attempts,
    createdAt,
  };
}

const idRow = row({ id: text });
const attemptsRow = row({ attempts: int });

// A user's MFA factors, one per method. Confirming or removing a factor also rewrites
// users.mfa_methods in the same transaction (mfa-methods.ts).
export function mfaFactorsRepository(manager: EntityManager) {
  const run = statements(manager);
  const factor = FACTOR.on(manager);
  const syncUser = (projectId: string, userId: string, now: Date) => syncMfaMethods(run, projectId, userId, now);
  return {
    async list(projectId: string, userId: string): Promise<MfaFactor[]> {
      const factors = await manager.find(MfaFactorEntity, { where: { projectId, userId }, order: { method: "ASC" } });
      return factors.map(fromEntity);
    },

    /**
     * Starts (or restarts) an enrollment: the pending factor of that method is replaced. A
     * confirmed factor of the method is left alone and the answer is false.
     */
    async startPending(
      projectId: string,
      input: {
        id: string;
        userId: string;
        method: MfaMethod;
        secretSealed: string | null;
        phone: string | null;
        codeHmac: string | null;
        codeExpiresAt: Date | null;
        now: Date;
      },
    ): Promise<boolean> {
      const started = await run.first(
        sql`INSERT INTO mfa_factors (id, project_id, user_id, method, secret_sealed, phone, pending_code_hmac, pending_code_expires_at, attempts, created_at)
            VALUES (${input.id}, ${projectId}, ${input.userId}, ${input.method}, ${input.secretSealed}, ${input.phone}, ${input.codeHmac}, ${input.codeExpiresAt}, 0, ${input.now})
            ON CONFLICT (project_id, user_id, method) DO UPDATE
              SET id = EXCLUDED.id, secret_sealed = EXCLUDED.secret_sealed, phone = EXCLUDED.phone,
                  pending_code_hmac = EXCLUDED.pending_code_hmac, pending_code_expires_at = EXCLUDED.pending_code_expires_at,
                  attempts = 0, last_step = NULL, created_at = EXCLUDED.created_at
              WHERE mfa_factors.confirmed_at IS NULL
            RETURNING id`,
        idRow,
      );
      return started !== null;
    },

    /** The pending factor, locked until the transaction ends; the newest when `method` is absent. */
    async lockPending(projectId: string, userId: string, method?: MfaMethod): Promise<MfaFactor | null> {
      const pending = await run.first(
        sql`SELECT ${factor.list}
            FROM mfa_factors WHERE project_id = ${projectId} AND user_id = ${userId} AND confirmed_at IS NULL
            ${method === undefined ? empty : sql`AND method = ${method}`} ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
        factor.decode,
      );
      return pending ? fromEntity(pending) : null;
    },

    /** A wrong code against a pending enrollment; at `maxAttempts` the enrollment is dropped. */
    async recordPendingFailure(projectId: string, id: string, maxAttempts: number): Promise<void> {
      const counted = await run.first(
        sql`UPDATE mfa_factors SET attempts = attempts + 1 WHERE project_id = ${projectId} AND id = ${id} AND confirmed_at IS NULL RETURNING attempts`,
        attemptsRow,
      );
      if ((counted?.attempts ?? 0) >= maxAttempts) {
        await manager.delete(MfaFactorEntity, { projectId, id, confirmedAt: IsNull() });
      }
    },

    /** Makes a pending factor active, and the user's mfa_methods with it. */
    async confirm(projectId: string, userId: string, id: string, now: Date): Promise<void> {
      await manager.update(
        MfaFactorEntity,
        { projectId, userId, id },
        { confirmedAt: now, pendingCodeHmac: null, pendingCodeExpiresAt: null, attempts: 0 },
      );
      await syncUser(projectId, userId, now);
    },

    /**
     * Accepts TOTP time step `step` for the factor unless that step or a later one was accepted
     * before: one conditional UPDATE, so a code is accepted once, whichever process sees it.
     */
    async acceptStep(projectId: string, id: string, step: number): Promise<boolean> {
      const accepted = await run.affected(
        sql`UPDATE mfa_factors SET last_step = ${step} WHERE project_id = ${projectId} AND id = ${id} AND (last_step IS NULL OR last_step < ${step})`,
      );
      return accepted > 0;
    },

    /** Removes a confirmed factor; false when the user has none of that method. */
    async removeConfirmed(projectId: string, userId: string, method: MfaMethod, now: Date): Promise<boolean> {
      const removed = await manager.delete(MfaFactorEntity, { projectId, userId, method, confirmedAt: Not(IsNull()) });
      if ((removed.affected ?? 0) === 0) return false;
      await syncUser(projectId, userId, now);
      return true;
    },
  };
}

export type MfaFactorsRepository = ReturnType<typeof mfaFactorsRepository>;
