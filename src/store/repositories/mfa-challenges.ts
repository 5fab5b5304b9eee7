import type { EntityManager } from "typeorm";
import type { MfaChallenge } from "../../domain/mfa.js";

interface ChallengeRow {
  user_id: string;
  purpose: MfaChallenge["purpose"];
  amr: string[];
  method: MfaChallenge["method"];
  sms_code_hmac: string | null;
  attempts: number;
  expires_at: Date;
}

const COLUMNS = "user_id, purpose, amr, method, sms_code_hmac, attempts, expires_at";

function toChallenge(r: ChallengeRow): MfaChallenge {
  return {
    userId: r.user_id,
    purpose: r.purpose,
    amr: r.amr,
    method: r.method,
    smsCodeHmac: r.sms_code_hmac,
    attempts: r.attempts,
    expiresAt: new Date(r.expires_at),
  };
}

// `mfa_token`s: 256 random bits, stored as SHA-256, bound to their project and user.
export function mfaChallengesRepository(manager: EntityManager) {
  return {
    async create(projectId: string, tokenHash: string, challenge: MfaChallenge, now: Date): Promise<void> {
      await manager.query(
        `INSERT INTO mfa_challenges (token_hash, project_id, user_id, purpose, amr, method, sms_code_hmac, attempts, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9)`,
        [tokenHash, projectId, challenge.userId, challenge.purpose, challenge.amr, challenge.method, challenge.smsCodeHmac, challenge.expiresAt, now],
      );
    },

    /** An unspent, unexpired challenge, without a lock (StartMfaEnrollment only reads it). */
    async findLive(projectId: string, tokenHash: string, now: Date): Promise<MfaChallenge | null> {
      const rows = (await manager.query(
        `SELECT ${COLUMNS} FROM mfa_challenges WHERE project_id = $1 AND token_hash = $2 AND consumed_at IS NULL AND expires_at > $3`,
        [projectId, tokenHash, now],
      )) as ChallengeRow[];
      return rows[0] ? toChallenge(rows[0]) : null;
    },

    /** The same, locked until the transaction ends: concurrent verifies of one challenge queue. */
    async lockLive(projectId: string, tokenHash: string, now: Date): Promise<MfaChallenge | null> {
      const rows = (await manager.query(
        `SELECT ${COLUMNS} FROM mfa_challenges WHERE project_id = $1 AND token_hash = $2 AND consumed_at IS NULL AND expires_at > $3
         FOR UPDATE`,
        [projectId, tokenHash, now],
      )) as ChallengeRow[];
      return rows[0] ? toChallenge(rows[0]) : null;
    },

    /** A wrong code: counts it, and spends the challenge at `maxAttempts`. */
    async recordFailure(projectId: string, tokenHash: string, maxAttempts: number, now: Date): Promise<void> {
      await manager.query(
        `UPDATE mfa_challenges SET attempts = attempts + 1, consumed_at = CASE WHEN attempts + 1 >= $3 THEN $4::timestamptz END
         WHERE project_id = $1 AND token_hash = $2 AND consumed_at IS NULL`,
        [projectId, tokenHash, maxAttempts, now],
      );
    },

    async consume(projectId: string, tokenHash: string, now: Date): Promise<void> {
      await manager.query(`UPDATE mfa_challenges SET consumed_at = $3 WHERE project_id = $1 AND token_hash = $2 AND consumed_at IS NULL`, [
        projectId,
        tokenHash,
        now,
      ]);
    },
  };
}

export type MfaChallengesRepository = ReturnType<typeof mfaChallengesRepository>;
