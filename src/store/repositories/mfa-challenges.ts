import { IsNull, MoreThan, type EntityManager } from "typeorm";
import type { MfaChallenge } from "../../domain/mfa.js";
import { MfaChallengeEntity } from "../entities/mfa-challenge.entity.js";
import { AUTH_METHODS } from "../../domain/usage.js";
import { entityColumns, oneOf, sql, statements } from "../sql/index.js";

const CHALLENGE = entityColumns(MfaChallengeEntity, {
  omit: ["tokenHash", "projectId", "consumedAt", "createdAt"],
  narrow: { purpose: oneOf("verify", "enroll"), method: oneOf(...AUTH_METHODS) },
});

function fromEntity(e: Omit<MfaChallengeEntity, "tokenHash" | "projectId" | "consumedAt" | "createdAt">): MfaChallenge {
  return {
    userId: e.userId,
    purpose: e.purpose,
    amr: e.amr,
    method: e.method,
    smsCodeHmac: e.smsCodeHmac,
    passkeyId: e.passkeyId,
    attempts: e.attempts,
    expiresAt: e.expiresAt,
  };
}

// `mfa_token`s: 256 random bits, stored as SHA-256, bound to their project and user.
export function mfaChallengesRepository(manager: EntityManager) {
  const run = statements(manager);
  const challenge = CHALLENGE.on(manager);
  return {
    async create(projectId: string, tokenHash: string, challenge: MfaChallenge, now: Date): Promise<void> {
      await manager.insert(MfaChallengeEntity, {
        tokenHash,
        projectId,
        userId: challenge.userId,
        purpose: challenge.purpose,
        amr: challenge.amr,
        method: challenge.method,
        smsCodeHmac: challenge.smsCodeHmac,
        passkeyId: challenge.passkeyId,
        attempts: 0,
        expiresAt: challenge.expiresAt,
        consumedAt: null,
        createdAt: now,
      });
    },

    /** An unspent, unexpired challenge, without a lock (StartMfaEnrollment only reads it). */
    async findLive(projectId: string, tokenHash: string, now: Date): Promise<MfaChallenge | null> {
      const live = await manager.findOne(MfaChallengeEntity, {
        where: { projectId, tokenHash, consumedAt: IsNull(), expiresAt: MoreThan(now) },
      });
      return live ? fromEntity(live) : null;
    },

    /** The same, locked until the transaction ends: concurrent verifies of one challenge queue. */
    async lockLive(projectId: string, tokenHash: string, now: Date): Promise<MfaChallenge | null> {
      const live = await run.first(
        sql`SELECT ${challenge.list} FROM mfa_challenges
            WHERE project_id = ${projectId} AND token_hash = ${tokenHash} AND consumed_at IS NULL AND expires_at > ${now}
            FOR UPDATE`,
        challenge.decode,
      );
      return live ? fromEntity(live) : null;
    },

    /** A wrong code: counts it, and spends the challenge at `maxAttempts`. */
    async recordFailure(projectId: string, tokenHash: string, maxAttempts: number, now: Date): Promise<void> {
      await run.execute(
        sql`UPDATE mfa_challenges SET attempts = attempts + 1, consumed_at = CASE WHEN attempts + 1 >= ${maxAttempts} THEN ${now}::timestamptz END
            WHERE project_id = ${projectId} AND token_hash = ${tokenHash} AND consumed_at IS NULL`,
      );
    },

    async consume(projectId: string, tokenHash: string, now: Date): Promise<void> {
      await manager.update(MfaChallengeEntity, { projectId, tokenHash, consumedAt: IsNull() }, { consumedAt: now });
    },
  };
}

export type MfaChallengesRepository = ReturnType<typeof mfaChallengesRepository>;
