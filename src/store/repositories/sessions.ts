import type { EntityManager } from "typeorm";
import type { Session } from "../../domain/auth.js";
import type { PageRequest } from "../../domain/pagination.js";

interface SessionRow {
  id: string;
  project_id: string;
  user_id: string;
  ip_address: string;
  user_agent: string;
  amr: string[];
  created_at: Date;
  last_active_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

const COLUMNS = "id, project_id, user_id, ip_address, user_agent, amr, created_at, last_active_at, expires_at, revoked_at";

function toSession(r: SessionRow): Session {
  return {
    id: r.id,
    projectId: r.project_id,
    userId: r.user_id,
    ipAddress: r.ip_address,
    userAgent: r.user_agent,
    amr: r.amr,
    createdAt: new Date(r.created_at),
    lastActiveAt: new Date(r.last_active_at),
    expiresAt: new Date(r.expires_at),
    revokedAt: r.revoked_at ? new Date(r.revoked_at) : null,
  };
}

export function sessionsRepository(manager: EntityManager) {
  return {
    /** A session that can still be used: not revoked, not past its absolute expiry. */
    async getActive(projectId: string, id: string, now: Date): Promise<Session | null> {
      const rows = (await manager.query(
        `SELECT ${COLUMNS} FROM sessions WHERE project_id = $1 AND id = $2 AND revoked_at IS NULL AND expires_at > $3`,
        [projectId, id, now],
      )) as SessionRow[];
      return rows[0] ? toSession(rows[0]) : null;
    },

    /**
     * One page of the user's live sessions, newest first by (created_at, id), strictly after
     * the page's position; `limit + 1` rows (see toPage). The live-sessions index serves it.
     */
    async listActive(projectId: string, userId: string, now: Date, page: PageRequest): Promise<Session[]> {
      const params: unknown[] = [projectId, userId, now];
      const after = page.after ? ` AND (created_at, id) < ($${params.push(page.after.createdAt)}, $${params.push(page.after.id)})` : "";
      const rows = (await manager.query(
        `SELECT ${COLUMNS} FROM sessions WHERE project_id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > $3${after}
         ORDER BY created_at DESC, id DESC LIMIT $${params.push(page.limit + 1)}`,
        params,
      )) as SessionRow[];
      return rows.map(toSession);
    },

    async touch(projectId: string, id: string, at: Date): Promise<void> {
      await manager.query(`UPDATE sessions SET last_active_at = $3 WHERE project_id = $1 AND id = $2`, [projectId, id, at]);
    },

    /**
     * Brings the session's absolute end forward to `end` (never later: an end already earlier
     * stays). The change feed hears it, so cached verifications see the new end at once.
     */
    async shortenTo(projectId: string, id: string, end: Date): Promise<void> {
      await manager.query(`UPDATE sessions SET expires_at = $3 WHERE project_id = $1 AND id = $2 AND expires_at > $3`, [projectId, id, end]);
    },

    /** Revokes one session of a user; false when it is not theirs or already ended. */
    async revoke(projectId: string, userId: string, id: string, at: Date): Promise<boolean> {
      const result = (await manager.query(
        `UPDATE sessions SET revoked_at = $4 WHERE project_id = $1 AND user_id = $2 AND id = $3 AND revoked_at IS NULL AND expires_at > $4 RETURNING id`,
        [projectId, userId, id, at],
      )) as [unknown[], number];
      return result[1] > 0;
    },

    /** Whether the user has (or had: revoked and expired sessions count) a session with this id. */
    async existsForUser(projectId: string, userId: string, id: string): Promise<boolean> {
      const rows = (await manager.query(`SELECT 1 FROM sessions WHERE project_id = $1 AND user_id = $2 AND id = $3`, [projectId, userId, id])) as unknown[];
      return rows.length > 0;
    },

    /** Revokes every live session of a user except `keep`; answers how many it ended. */
    async revokeAll(projectId: string, userId: string, at: Date, keep?: string): Promise<number> {
      const result = (await manager.query(
        `UPDATE sessions SET revoked_at = $3
         WHERE project_id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > $3 AND id IS DISTINCT FROM $4 RETURNING id`,
        [projectId, userId, at, keep ?? null],
      )) as [unknown[], number];
      return result[1];
    },
  };
}

export type SessionsRepository = ReturnType<typeof sessionsRepository>;
