import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { Clock } from "../../domain/clock.js";

export interface RefreshTokenRecord {
  id: string;
  projectId: string;
  sessionId: string;
  expiresAt: Date;
  rotatedAt: Date | null;
  successorSealed: string | null;
  revokedAt: Date | null;
}

interface Row {
  id: string;
  project_id: string;
  session_id: string;
  expires_at: Date;
  rotated_at: Date | null;
  successor_sealed: string | null;
  revoked_at: Date | null;
}

const toRecord = (r: Row): RefreshTokenRecord => ({
  id: r.id,
  projectId: r.project_id,
  sessionId: r.session_id,
  expiresAt: new Date(r.expires_at),
  rotatedAt: r.rotated_at ? new Date(r.rotated_at) : null,
  successorSealed: r.successor_sealed,
  revokedAt: r.revoked_at ? new Date(r.revoked_at) : null,
});

export function refreshTokensRepository(manager: EntityManager, clock: Clock) {
  return {
    async create(projectId: string, input: { sessionId: string; tokenHash: string; expiresAt: Date }): Promise<RefreshTokenRecord> {
      const rows = (await manager.query(
        `INSERT INTO refresh_tokens (id, project_id, session_id, token_hash, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, project_id, session_id, expires_at, rotated_at, successor_sealed, revoked_at`,
        [newId("rt"), projectId, input.sessionId, input.tokenHash, clock.now(), input.expiresAt],
      )) as Row[];
      return toRecord(rows[0]);
    },

    /**
     * The token by hash, locked for the rest of the transaction: concurrent refreshes of one
     * token queue here, so exactly one rotates it and the others see the rotation.
     */
    async findForUpdate(projectId: string, tokenHash: string): Promise<RefreshTokenRecord | null> {
      const rows = (await manager.query(
        `SELECT id, project_id, session_id, expires_at, rotated_at, successor_sealed, revoked_at
         FROM refresh_tokens WHERE project_id = $1 AND token_hash = $2 FOR UPDATE`,
        [projectId, tokenHash],
      )) as Row[];
      return rows[0] ? toRecord(rows[0]) : null;
    },

    /** The session of a token by hash, without a lock: for the per-session rate limit. */
    async sessionOf(projectId: string, tokenHash: string): Promise<string | null> {
      const rows = (await manager.query(`SELECT session_id FROM refresh_tokens WHERE project_id = $1 AND token_hash = $2`, [projectId, tokenHash])) as Array<{
        session_id: string;
      }>;
      return rows[0]?.session_id ?? null;
    },

    async markRotated(id: string, at: Date, successorSealed: string): Promise<void> {
      await manager.query(`UPDATE refresh_tokens SET rotated_at = $2, successor_sealed = $3 WHERE id = $1`, [id, at, successorSealed]);
    },

    /** The grace window is over: the successor's plaintext is no longer needed. */
    async forgetSuccessor(id: string): Promise<void> {
      await manager.query(`UPDATE refresh_tokens SET successor_sealed = NULL WHERE id = $1`, [id]);
    },

    /**
     * Forgets the sealed successors of the session's tokens rotated before `before` (the end
     * of their grace window): called at each rotation, so a pair's plaintext outlives its
     * window only until the session's next refresh (or the reuse that ends it).
     */
    async forgetSuccessorsRotatedBefore(projectId: string, sessionId: string, before: Date): Promise<void> {
      await manager.query(
        `UPDATE refresh_tokens SET successor_sealed = NULL
         WHERE project_id = $1 AND session_id = $2 AND rotated_at < $3 AND successor_sealed IS NOT NULL`,
        [projectId, sessionId, before],
      );
    },

    /**
     * Revokes one token; false when it was not live (unknown, of another project, rotated,
     * already revoked, expired, or of a session that has ended).
     */
    async revoke(projectId: string, tokenHash: string, at: Date): Promise<boolean> {
      const result = (await manager.query(
        `UPDATE refresh_tokens rt SET revoked_at = $3
         WHERE rt.project_id = $1 AND rt.token_hash = $2 AND rt.revoked_at IS NULL AND rt.rotated_at IS NULL AND rt.expires_at > $3
           AND EXISTS (SELECT 1 FROM sessions s WHERE s.project_id = rt.project_id AND s.id = rt.session_id
                         AND s.revoked_at IS NULL AND s.expires_at > $3)
         RETURNING rt.id`,
        [projectId, tokenHash, at],
      )) as [unknown[], number];
      return result[1] > 0;
    },
  };
}

export type RefreshTokensRepository = ReturnType<typeof refreshTokensRepository>;
