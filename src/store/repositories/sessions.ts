import type { EntityManager } from "typeorm";
import { IsNull, MoreThan, Not } from "typeorm";
import type { Session } from "../../domain/auth.js";
import type { PageRequest } from "../../domain/pagination.js";
import { SessionEntity } from "../entities/session.entity.js";
import { keysetTail } from "../keyset.js";
import { entityColumns, sql, statements } from "../sql/index.js";

const SESSION = entityColumns(SessionEntity);

const toSession = (r: SessionEntity): Session => ({
  id: r.id,
  projectId: r.projectId,
  userId: r.userId,
  ipAddress: r.ipAddress,
  userAgent: r.userAgent,
  amr: r.amr,
  createdAt: r.createdAt,
  lastActiveAt: r.lastActiveAt,
  expiresAt: r.expiresAt,
  revokedAt: r.revokedAt,
});

export function sessionsRepository(manager: EntityManager) {
  const sessions = manager.getRepository(SessionEntity);
  const run = statements(manager);
  const session = SESSION.on(manager);
  /** Live at `at`: not revoked, not past its absolute expiry. */
  const live = (at: Date) => ({ revokedAt: IsNull(), expiresAt: MoreThan(at) });
  return {
    /**
     * A session that can still be used: not revoked, not past its absolute expiry. On every
     * refresh and every verification the cache misses, so a fixed statement rather than a
     * built query.
     */
    async getActive(projectId: string, id: string, now: Date): Promise<Session | null> {
      const found = await run.first(
        sql`SELECT ${session.list} FROM sessions
            WHERE project_id = ${projectId} AND id = ${id} AND revoked_at IS NULL AND expires_at > ${now}`,
        session.decode,
      );
      return found ? toSession(found) : null;
    },

    /**
     * One page of the user's live sessions, newest first by (created_at, id), strictly after
     * the page's position; `limit + 1` rows (see toPage). The live-sessions index serves it.
     */
    async listActive(projectId: string, userId: string, now: Date, page: PageRequest): Promise<Session[]> {
      const rows = await run.rows(
        sql`SELECT ${session.list} FROM sessions
            WHERE project_id = ${projectId} AND user_id = ${userId} AND revoked_at IS NULL AND expires_at > ${now}${keysetTail(page)}`,
        session.decode,
      );
      return rows.map(toSession);
    },

    /** On every refresh: a fixed statement. */
    async touch(projectId: string, id: string, at: Date): Promise<void> {
      await run.execute(sql`UPDATE sessions SET last_active_at = ${at} WHERE project_id = ${projectId} AND id = ${id}`);
    },

    /**
     * Brings the session's absolute end forward to `end` (never later: an end already earlier
     * stays). The change feed hears it, so cached verifications see the new end at once.
     */
    async shortenTo(projectId: string, id: string, end: Date): Promise<void> {
      await sessions.update({ projectId, id, expiresAt: MoreThan(end) }, { expiresAt: end });
    },

    /** Revokes one session of a user; false when it is not theirs or already ended. */
    async revoke(projectId: string, userId: string, id: string, at: Date): Promise<boolean> {
      const result = await sessions.update({ projectId, userId, id, ...live(at) }, { revokedAt: at });
      return (result.affected ?? 0) > 0;
    },

    /** Whether the user has (or had: revoked and expired sessions count) a session with this id. */
    existsForUser(projectId: string, userId: string, id: string): Promise<boolean> {
      return sessions.existsBy({ projectId, userId, id });
    },

    /** Revokes every live session of a user except `keep`; answers how many it ended. */
    async revokeAll(projectId: string, userId: string, at: Date, keep?: string): Promise<number> {
      const result = await sessions.update(
        { projectId, userId, ...live(at), ...(keep === undefined ? {} : { id: Not(keep) }) },
        { revokedAt: at },
      );
      return result.affected ?? 0;
    },
  };
}

export type SessionsRepository = ReturnType<typeof sessionsRepository>;
