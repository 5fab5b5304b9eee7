import type { EntityManager } from "typeorm";
import { MemberMfaChallengeEntity } from "../entities/member-mfa-challenge.entity.js";
import type { MemberMfaChallenge } from "../../domain/member-mfa.js";
import { entityColumns, oneOf, type RowOf, sql, statements } from "../sql/index.js";

const CHALLENGE = entityColumns(MemberMfaChallengeEntity, {
  omit: ["tokenHash", "consumedAt", "createdAt"],
  narrow: { purpose: oneOf("verify", "enroll") },
});

function fromRow(r: RowOf<typeof CHALLENGE>): MemberMfaChallenge {
  return {
    identityId: r.identityId,
    organizationId: r.organizationId,
    memberId: r.memberId,
    purpose: r.purpose,
    attempts: r.attempts,
    expiresAt: r.expiresAt,
  };
}

// Members' mfa_tokens: 256 random bits, stored as SHA-256, bound to the membership the sign-in
// is for (a removed member's go with it). The token names the row: whoever holds it proved the
// password of that identity for that organization.
export function memberMfaChallengesRepository(manager: EntityManager) {
  const run = statements(manager);
  const challengeColumns = CHALLENGE.on(manager);
  return {
    /** Keeps a new challenge, and clears a few expired ones (no sweeper needed). */
    async create(tokenHash: string, challenge: MemberMfaChallenge, now: Date): Promise<void> {
      await run.execute(
        sql`WITH expired AS (
              DELETE FROM member_mfa_challenges WHERE token_hash IN (
                SELECT token_hash FROM member_mfa_challenges WHERE expires_at < ${now} LIMIT 20))
            INSERT INTO member_mfa_challenges (token_hash, identity_id, organization_id, member_id, purpose, attempts, expires_at, created_at)
            VALUES (${tokenHash}, ${challenge.identityId}, ${challenge.organizationId}, ${challenge.memberId},
                    ${challenge.purpose}, 0, ${challenge.expiresAt}, ${now})`,
      );
    },

    /** An unspent, unexpired challenge, without a lock. */
    async findLive(tokenHash: string, now: Date): Promise<MemberMfaChallenge | null> {
      const live = await run.first(
        sql`SELECT ${challengeColumns.list} FROM member_mfa_challenges
            WHERE token_hash = ${tokenHash} AND consumed_at IS NULL AND expires_at > ${now}`,
        challengeColumns.decode,
      );
      return live ? fromRow(live) : null;
    },

    /** The same, locked until the transaction ends: concurrent answers to one challenge queue. */
    async lockLive(tokenHash: string, now: Date): Promise<MemberMfaChallenge | null> {
      const live = await run.first(
        sql`SELECT ${challengeColumns.list} FROM member_mfa_challenges
            WHERE token_hash = ${tokenHash} AND consumed_at IS NULL AND expires_at > ${now} FOR UPDATE`,
        challengeColumns.decode,
      );
      return live ? fromRow(live) : null;
    },

    /** A wrong answer: counts it, and spends the challenge at `maxAttempts`. */
    async recordFailure(tokenHash: string, maxAttempts: number, now: Date): Promise<void> {
      await run.execute(
        sql`UPDATE member_mfa_challenges SET attempts = attempts + 1,
              consumed_at = CASE WHEN attempts + 1 >= ${maxAttempts} THEN ${now}::timestamptz END
            WHERE token_hash = ${tokenHash} AND consumed_at IS NULL`,
      );
    },

    async consume(tokenHash: string, now: Date): Promise<void> {
      await run.execute(
        sql`UPDATE member_mfa_challenges SET consumed_at = ${now} WHERE token_hash = ${tokenHash} AND consumed_at IS NULL`,
      );
    },
  };
}

export type MemberMfaChallengesRepository = ReturnType<typeof memberMfaChallengesRepository>;
