import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { Clock } from "../../domain/clock.js";

export type UserTokenKind = "password_reset" | "email_verification";

export interface ConsumedUserToken {
  userId: string;
  email: string;
}

// Single-use links, stored as SHA-256 and burned atomically: of two racing uses, one wins.
export function userTokensRepository(manager: EntityManager, clock: Clock) {
  return {
    /**
     * Issues a link; earlier unused links of the same kind for the user stop working.
     * `issuedAt` (default: now) is the instant `expiresAt` was counted from.
     */
    async issue(
      projectId: string,
      input: { userId: string; kind: UserTokenKind; tokenHash: string; email: string; expiresAt: Date; issuedAt?: Date },
    ): Promise<void> {
      const now = input.issuedAt ?? clock.now();
      await manager.query(
        `UPDATE user_tokens SET consumed_at = $4 WHERE project_id = $1 AND user_id = $2 AND kind = $3 AND consumed_at IS NULL`,
        [projectId, input.userId, input.kind, now],
      );
      await manager.query(
        `INSERT INTO user_tokens (id, project_id, user_id, kind, token_hash, email, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [newId("utk"), projectId, input.userId, input.kind, input.tokenHash, input.email, input.expiresAt, now],
      );
    },

    /** Burns a live link and answers whose it was; null when unknown, used or expired. */
    async consume(projectId: string, kind: UserTokenKind, tokenHash: string, now: Date): Promise<ConsumedUserToken | null> {
      const result = (await manager.query(
        `UPDATE user_tokens SET consumed_at = $4
         WHERE project_id = $1 AND kind = $2 AND token_hash = $3 AND consumed_at IS NULL AND expires_at > $4
         RETURNING user_id, email`,
        [projectId, kind, tokenHash, now],
      )) as [Array<{ user_id: string; email: string }>, number];
      const row = result[0]?.[0];
      return row ? { userId: row.user_id, email: row.email } : null;
    },
  };
}

export type UserTokensRepository = ReturnType<typeof userTokensRepository>;
