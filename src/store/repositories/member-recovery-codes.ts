import type { EntityManager } from "typeorm";
import { int, row, sql, statements } from "../sql/index.js";

const countRow = row({ count: int });

// A member identity's single-use recovery codes, as HMACs under a key derived from the server
// secret (a code has about 50 bits: a bare hash could be brute-forced from a stolen table).
export function memberRecoveryCodesRepository(manager: EntityManager) {
  const run = statements(manager);
  return {
    /** Replaces the identity's codes with a new set. */
    async replace(identityId: string, codeHmacs: string[], now: Date): Promise<void> {
      await run.execute(sql`DELETE FROM member_recovery_codes WHERE identity_id = ${identityId}`);
      for (const codeHmac of codeHmacs)
        await run.execute(
          sql`INSERT INTO member_recovery_codes (identity_id, code_hmac, created_at) VALUES (${identityId}, ${codeHmac}, ${now})`,
        );
    },

    /** Spends one unused code; of two racing uses of a code, one wins (one conditional UPDATE). */
    async use(identityId: string, codeHmac: string, now: Date): Promise<boolean> {
      const spent = await run.affected(
        sql`UPDATE member_recovery_codes SET used_at = ${now}
            WHERE identity_id = ${identityId} AND code_hmac = ${codeHmac} AND used_at IS NULL`,
      );
      return spent > 0;
    },

    async remaining(identityId: string): Promise<number> {
      const found = await run.first(
        sql`SELECT count(*)::int AS count FROM member_recovery_codes WHERE identity_id = ${identityId} AND used_at IS NULL`,
        countRow,
      );
      return found?.count ?? 0;
    },

    async removeAll(identityId: string): Promise<void> {
      await run.execute(sql`DELETE FROM member_recovery_codes WHERE identity_id = ${identityId}`);
    },
  };
}

export type MemberRecoveryCodesRepository = ReturnType<typeof memberRecoveryCodesRepository>;
