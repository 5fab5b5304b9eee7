import type { EntityManager } from "typeorm";
import { IsNull } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { Clock } from "../../domain/clock.js";
import { UserTokenEntity } from "../entities/user-token.entity.js";
import { oneOf, row, sql, statements, text } from "../sql/index.js";

/**
 * `email_change`: confirms a pending new address; its `email` is that new address.
 * `invitation`: an admin's invitation (InviteUser), spent by ResetPassword like a reset link.
 */
export type UserTokenKind = "password_reset" | "email_verification" | "email_change" | "invitation";

export interface ConsumedUserToken {
  userId: string;
  /** The address the link was sent to. */
  email: string;
  kind: UserTokenKind;
}

const consumedRow = row({
  userId: text,
  email: text,
  kind: oneOf<UserTokenKind>("password_reset", "email_verification", "email_change", "invitation"),
});

// Single-use links, stored as SHA-256 and burned atomically: of two racing uses, one wins.
export function userTokensRepository(manager: EntityManager, clock: Clock) {
  const links = manager.getRepository(UserTokenEntity);
  const run = statements(manager);
  return {
    /**
     * Issues a link; earlier unused links of the same kind for the user stop working.
     * `issuedAt` (default: now) is the instant `expiresAt` was counted from.
     */
    async issue(
      projectId: string,
      input: {
        userId: string;
        kind: UserTokenKind;
        tokenHash: string;
        email: string;
        expiresAt: Date;
        issuedAt?: Date;
      },
    ): Promise<void> {
      const now = input.issuedAt ?? clock.now();
      await links.update(
        { projectId, userId: input.userId, kind: input.kind, consumedAt: IsNull() },
        { consumedAt: now },
      );
      await links.insert({
        id: newId("utk"),
        projectId,
        userId: input.userId,
        kind: input.kind,
        tokenHash: input.tokenHash,
        email: input.email,
        expiresAt: input.expiresAt,
        createdAt: now,
      });
    },

    /**
     * Burns a live link of one of `kinds` and answers whose it was and its kind; null when
     * unknown, used, expired or of another kind. One UPDATE … RETURNING: the check and the burn
     * are one step.
     */
    consume(
      projectId: string,
      kinds: UserTokenKind | readonly UserTokenKind[],
      tokenHash: string,
      now: Date,
    ): Promise<ConsumedUserToken | null> {
      return run.first(
        sql`UPDATE user_tokens SET consumed_at = ${now}
            WHERE project_id = ${projectId} AND kind = ANY(${typeof kinds === "string" ? [kinds] : kinds}::text[]) AND token_hash = ${tokenHash}
              AND consumed_at IS NULL AND expires_at > ${now}
            RETURNING user_id AS "userId", email, kind`,
        consumedRow,
      );
    },

    /**
     * Ends the user's live links of `kinds` (a password set by one link withdraws the other
     * links that would set it); answers how many were live.
     */
    withdraw(projectId: string, userId: string, kinds: readonly UserTokenKind[], now: Date): Promise<number> {
      return run.affected(
        sql`UPDATE user_tokens SET consumed_at = ${now}
            WHERE project_id = ${projectId} AND user_id = ${userId} AND kind = ANY(${kinds}::text[])
              AND consumed_at IS NULL AND expires_at > ${now}`,
      );
    },
  };
}

export type UserTokensRepository = ReturnType<typeof userTokensRepository>;
