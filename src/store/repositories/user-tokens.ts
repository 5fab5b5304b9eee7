import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { Clock } from "../../domain/clock.js";

/** `email_change`: confirms a pending new address; its `email` is that new address. */
export type UserTokenKind = "password_reset" | "email_verification" | "email_change";

export interface ConsumedUserToken {
  userId: string;
  /** The address the link was sent to. */
  email: string;
  kind: UserTokenKind;
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

    /**
     * Burns a live link of one of `kinds` and answers whose it was and its kind; null when
     * unknown, used, expired or of another kind.
     */
    async consume(projectId: string, kinds: UserTokenKind | readonly UserTokenKind[], tokenHash: string, now: Date): Promise<ConsumedUserToken | null> {
      const result = (await manager.query(
        `UPDATE user_tokens SET consumed_at = $4
         WHERE project_id = $1 AND kind = ANY($2::text[]) AND token_hash = $3 AND consumed_at IS NULL AND expires_at > $4
         RETURNING user_id, email, kind`,
        [projectId, typeof kinds === "string" ? [kinds] : kinds, tokenHash, now],
      )) as [Array<{ user_id: string; email: string; kind: UserTokenKind }>, number];
      const row = result[0]?.[0];
      return row ? { userId: row.user_id, email: row.email, kind: row.kind } : null;
    },
  };
}

export type UserTokensRepository = ReturnType<typeof userTokensRepository>;
