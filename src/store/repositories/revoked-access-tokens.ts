import type { EntityManager } from "typeorm";

// Access tokens are self-contained JWTs; revoking one before it expires means remembering its
// jti until then.
export function revokedAccessTokensRepository(manager: EntityManager) {
  return {
    /** Denies the jti until `expiresAt` (when the token dies anyway); false when it already was. */
    async revoke(projectId: string, jti: string, expiresAt: Date): Promise<boolean> {
      const rows = (await manager.query(
        `INSERT INTO revoked_access_tokens (jti, project_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT (jti) DO NOTHING RETURNING jti`,
        [jti, projectId, expiresAt],
      )) as unknown[];
      return rows.length > 0;
    },

    async isRevoked(projectId: string, jti: string): Promise<boolean> {
      const rows = (await manager.query(`SELECT 1 FROM revoked_access_tokens WHERE project_id = $1 AND jti = $2`, [projectId, jti])) as unknown[];
      return rows.length > 0;
    },

    /** Every jti still denied at `now`, for the in-memory deny list (verification-cache.ts). */
    async listUnexpired(now: Date): Promise<Array<{ projectId: string; jti: string; expiresAt: number }>> {
      const rows = (await manager.query(
        `SELECT project_id, jti, floor(extract(epoch FROM expires_at))::bigint AS exp FROM revoked_access_tokens WHERE expires_at > $1`,
        [now],
      )) as Array<{ project_id: string; jti: string; exp: string }>;
      return rows.map((r) => ({ projectId: r.project_id, jti: r.jti, expiresAt: Number(r.exp) }));
    },
  };
}

export type RevokedAccessTokensRepository = ReturnType<typeof revokedAccessTokensRepository>;
