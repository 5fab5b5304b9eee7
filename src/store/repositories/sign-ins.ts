import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { Session } from "../../domain/auth.js";
import type { AuthEvent } from "../../domain/usage.js";

export interface SignInWrite {
  /** The new session, id included (the access token names it before it is written). */
  session: Session;
  refreshTokenHash: string;
  event: AuthEvent & { at: Date };
}

// Everything a sign-in writes (its session, its first refresh token, the user's last_login_at
// and the usage event) in one statement: one round trip instead of six, and atomic on its own,
// so a sign-in needs no transaction unless it writes something else too.
export function signInsRepository(manager: EntityManager) {
  return {
    async record(write: SignInWrite): Promise<void> {
      const { session: s, event: e } = write;
      await manager.query(
        `WITH new_session AS (
           INSERT INTO sessions (id, project_id, user_id, ip_address, user_agent, amr, created_at, last_active_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8) RETURNING id
         ), refresh AS (
           INSERT INTO refresh_tokens (id, project_id, session_id, token_hash, created_at, expires_at)
           SELECT $9, $2, id, $10, $7, $8 FROM new_session
         ), touched AS (
           UPDATE users SET last_login_at = $7 WHERE project_id = $2 AND id = $3
         )
         INSERT INTO auth_events (organization_id, project_id, user_id, kind, method, tokens_issued, occurred_at)
         VALUES ($11, $2, $3, $12, $13, $14, $15)`,
        [
          s.id,
          s.projectId,
          s.userId,
          s.ipAddress,
          s.userAgent,
          s.amr,
          s.createdAt,
          s.expiresAt,
          newId("rt"),
          write.refreshTokenHash,
          e.organizationId,
          e.kind,
          e.method,
          e.tokensIssued ?? 1,
          e.at,
        ],
      );
    },
  };
}

export type SignInsRepository = ReturnType<typeof signInsRepository>;
