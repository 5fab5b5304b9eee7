import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { Clock } from "../../domain/clock.js";

// Member password reset links, stored as SHA-256. One row per identity: a newer request
// replaces the older row (and so its link); a use deletes the row, so the link works once and
// of two racing uses exactly one gets the identity back.
export function memberPasswordResetsRepository(manager: EntityManager, clock: Clock) {
  return {
    /** `issuedAt` (default: now) is the instant `expiresAt` was counted from. */
    async replace(identityId: string, input: { tokenHash: string; expiresAt: Date; issuedAt?: Date }): Promise<void> {
      await manager.query(
        `INSERT INTO member_password_resets (id, identity_id, token_hash, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (identity_id) DO UPDATE
           SET id = EXCLUDED.id, token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at`,
        [newId("mpr"), identityId, input.tokenHash, input.expiresAt, input.issuedAt ?? clock.now()],
      );
    },

    /** Burns a live link and answers its identity; null when unknown, used, replaced or expired. */
    async consume(tokenHash: string, now: Date): Promise<string | null> {
      const result = (await manager.query(
        `DELETE FROM member_password_resets WHERE token_hash = $1 AND expires_at > $2 RETURNING identity_id`,
        [tokenHash, now],
      )) as [Array<{ identity_id: string }>, number];
      return result[0]?.[0]?.identity_id ?? null;
    },
  };
}

export type MemberPasswordResetsRepository = ReturnType<typeof memberPasswordResetsRepository>;
