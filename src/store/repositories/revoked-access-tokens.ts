import type { EntityManager } from "typeorm";
import { MoreThan } from "typeorm";
import { RevokedAccessTokenEntity } from "../entities/revoked-access-token.entity.js";
import { bool, row, sql, statements } from "../sql/index.js";

const presence = row({ revoked: bool });

// Access tokens are self-contained JWTs; revoking one before it expires means remembering its
// jti until then.
export function revokedAccessTokensRepository(manager: EntityManager) {
  const revoked = manager.getRepository(RevokedAccessTokenEntity);
  const run = statements(manager);
  return {
    /** Denies the jti until `expiresAt` (when the token dies anyway); false when it already was. */
    async revoke(projectId: string, jti: string, expiresAt: Date): Promise<boolean> {
      // One conditional insert: of two racing revocations, one reports it did it.
      const inserted = await run.affected(
        sql`INSERT INTO revoked_access_tokens (jti, project_id, expires_at) VALUES (${jti}, ${projectId}, ${expiresAt}) ON CONFLICT (jti) DO NOTHING`,
      );
      return inserted > 0;
    },

    /** On every verification until the deny list is loaded: a fixed statement. */
    async isRevoked(projectId: string, jti: string): Promise<boolean> {
      const found = await run.first(
        sql`SELECT true AS revoked FROM revoked_access_tokens WHERE project_id = ${projectId} AND jti = ${jti}`,
        presence,
      );
      return found !== null;
    },

    /** Every jti still denied at `now`, for the in-memory deny list (verification-cache.ts). */
    async listUnexpired(now: Date): Promise<Array<{ projectId: string; jti: string; expiresAt: number }>> {
      const rows = await revoked.find({
        select: { jti: true, projectId: true, expiresAt: true },
        where: { expiresAt: MoreThan(now) },
      });
      return rows.map((r) => ({
        projectId: r.projectId,
        jti: r.jti,
        expiresAt: Math.floor(r.expiresAt.getTime() / 1000),
      }));
    },
  };
}

export type RevokedAccessTokensRepository = ReturnType<typeof revokedAccessTokensRepository>;
