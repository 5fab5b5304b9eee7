import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { Clock } from "../../domain/clock.js";
import { RefreshTokenEntity } from "../entities/refresh-token.entity.js";
import { entityColumns, row, sql, statements, text } from "../sql/index.js";

/** A refresh token as the refresh flow reads it: never its hash (it was looked up by it). */
export type RefreshTokenRecord = Omit<RefreshTokenEntity, "tokenHash" | "createdAt">;

const RECORD = entityColumns(RefreshTokenEntity, { omit: ["tokenHash", "createdAt"] });
const sessionIdRow = row({ session_id: text });

// Every refresh runs sessionOf, findForUpdate, markRotated and forgetSuccessorsRotatedBefore,
// and create issues each new pair: fixed statements on that path, no query building per call.
const revokedRow = row({ session_id: text, user_id: text });

export function refreshTokensRepository(manager: EntityManager, clock: Clock) {
  const tokens = manager.getRepository(RefreshTokenEntity);
  const run = statements(manager);
  const record = RECORD.on(manager);
  return {
    async create(
      projectId: string,
      input: { sessionId: string; tokenHash: string; expiresAt: Date },
    ): Promise<RefreshTokenRecord> {
      const id = newId("rt");
      await run.execute(
        sql`INSERT INTO refresh_tokens (id, project_id, session_id, token_hash, created_at, expires_at)
            VALUES (${id}, ${projectId}, ${input.sessionId}, ${input.tokenHash}, ${clock.now()}, ${input.expiresAt})`,
      );
      return {
        id,
        projectId,
        sessionId: input.sessionId,
        expiresAt: input.expiresAt,
        rotatedAt: null,
        successorSealed: null,
        revokedAt: null,
      };
    },

    /**
     * The token by hash, locked for the rest of the transaction: concurrent refreshes of one
     * token queue here, so exactly one rotates it and the others see the rotation.
     */
    findForUpdate(projectId: string, tokenHash: string): Promise<RefreshTokenRecord | null> {
      return run.first(
        sql`SELECT ${record.list} FROM refresh_tokens WHERE project_id = ${projectId} AND token_hash = ${tokenHash} FOR UPDATE`,
        record.decode,
      );
    },

    /** The session of a token by hash, without a lock: for the per-session rate limit. */
    async sessionOf(projectId: string, tokenHash: string): Promise<string | null> {
      const found = await run.first(
        sql`SELECT session_id FROM refresh_tokens WHERE project_id = ${projectId} AND token_hash = ${tokenHash}`,
        sessionIdRow,
      );
      return found?.session_id ?? null;
    },

    async markRotated(projectId: string, id: string, at: Date, successorSealed: string): Promise<void> {
      await run.execute(
        sql`UPDATE refresh_tokens SET rotated_at = ${at}, successor_sealed = ${successorSealed} WHERE project_id = ${projectId} AND id = ${id}`,
      );
    },

    /** The grace window is over: the successor's plaintext is no longer needed. */
    async forgetSuccessor(projectId: string, id: string): Promise<void> {
      await tokens.update({ projectId, id }, { successorSealed: null });
    },

    /**
     * Forgets the sealed successors of the session's tokens rotated before `before` (the end
     * of their grace window): called at each rotation, so a pair's plaintext outlives its
     * window only until the session's next refresh (or the reuse that ends it).
     */
    async forgetSuccessorsRotatedBefore(projectId: string, sessionId: string, before: Date): Promise<void> {
      await run.execute(
        sql`UPDATE refresh_tokens SET successor_sealed = NULL
            WHERE project_id = ${projectId} AND session_id = ${sessionId} AND rotated_at < ${before} AND successor_sealed IS NOT NULL`,
      );
    },

    /**
     * Revokes one token; false when it was not live (unknown, of another project, rotated,
     * already revoked, expired, or of a session that has ended). One statement: the token and
     * its session are checked and the token revoked together.
     */
    async revoke(
      projectId: string,
      tokenHash: string,
      at: Date,
    ): Promise<{ sessionId: string; userId: string } | null> {
      const revoked = await run.first(
        sql`UPDATE refresh_tokens rt SET revoked_at = ${at}
              FROM sessions s
             WHERE rt.project_id = ${projectId} AND rt.token_hash = ${tokenHash} AND rt.revoked_at IS NULL AND rt.rotated_at IS NULL AND rt.expires_at > ${at}
               AND s.project_id = rt.project_id AND s.id = rt.session_id AND s.revoked_at IS NULL AND s.expires_at > ${at}
         RETURNING rt.session_id, s.user_id`,
        revokedRow,
      );
      return revoked && { sessionId: revoked.session_id, userId: revoked.user_id };
    },
  };
}

export type RefreshTokensRepository = ReturnType<typeof refreshTokensRepository>;
