import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { Clock } from "../../domain/clock.js";
import { MemberPasswordResetEntity } from "../entities/member-password-reset.entity.js";
import { entityColumns, row, sql, statements, text } from "../sql/index.js";

const RESET = entityColumns(MemberPasswordResetEntity);

const burned = row({ identity_id: text });

// Member password reset links, stored as SHA-256. One row per identity: a newer request
// replaces the older row (and so its link); a use deletes the row, so the link works once and
// of two racing uses exactly one gets the identity back. Identities are global, not a tenant's
// (member-identities.ts): the link itself is the credential.
export function memberPasswordResetsRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
  const reset = RESET.on(manager);
  return {
    /** `issuedAt` (default: now) is the instant `expiresAt` was counted from. */
    async replace(identityId: string, input: { tokenHash: string; expiresAt: Date; issuedAt?: Date }): Promise<void> {
      const fresh = {
        id: newId("mpr"),
        identityId,
        tokenHash: input.tokenHash,
        expiresAt: input.expiresAt,
        createdAt: input.issuedAt ?? clock.now(),
      };
      await run.execute(
        sql`${reset.insert(fresh)} ON CONFLICT (identity_id) DO UPDATE
            SET id = EXCLUDED.id, token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at`,
      );
    },

    /** Burns a live link and answers its identity; null when unknown, used, replaced or expired. */
    async consume(tokenHash: string, now: Date): Promise<string | null> {
      const spent = await run.first(
        sql`DELETE FROM member_password_resets WHERE token_hash = ${tokenHash} AND expires_at > ${now} RETURNING identity_id`,
        burned,
      );
      return spent?.identity_id ?? null;
    },
  };
}

export type MemberPasswordResetsRepository = ReturnType<typeof memberPasswordResetsRepository>;
