import type { EntityManager } from "typeorm";

// Sign-in links, one live link per email: a new send overwrites the row, so the previous link
// dies. The token is 256 random bits, stored as SHA-256 and burned by one conditional UPDATE.
export function magicLinksRepository(manager: EntityManager) {
  return {
    /**
     * Stores a new link for the email unless the last one was sent less than `minIntervalMs`
     * ago (then the answer is the time of that send), in one upsert.
     */
    async replace(
      projectId: string,
      input: { emailNormalized: string; email: string; tokenHash: string; now: Date; expiresAt: Date; minIntervalMs: number },
    ): Promise<{ stored: true } | { stored: false; lastSentAt: Date }> {
      const notBefore = new Date(input.now.getTime() - input.minIntervalMs);
      const result = (await manager.query(
        `INSERT INTO magic_links (project_id, email_normalized, email, token_hash, sent_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (project_id, email_normalized) DO UPDATE
           SET email = EXCLUDED.email, token_hash = EXCLUDED.token_hash, sent_at = EXCLUDED.sent_at,
               expires_at = EXCLUDED.expires_at, consumed_at = NULL
           WHERE magic_links.sent_at <= $7
         RETURNING sent_at`,
        [projectId, input.emailNormalized, input.email, input.tokenHash, input.now, input.expiresAt, notBefore],
      )) as Array<{ sent_at: Date }>;
      if (result.length > 0) return { stored: true };
      const rows = (await manager.query(`SELECT sent_at FROM magic_links WHERE project_id = $1 AND email_normalized = $2`, [
        projectId,
        input.emailNormalized,
      ])) as Array<{ sent_at: Date }>;
      return { stored: false, lastSentAt: new Date(rows[0]?.sent_at ?? input.now) };
    },

    /** Burns a live link and answers the email it was sent to; null when unknown, used, replaced or expired. */
    async consume(projectId: string, tokenHash: string, now: Date): Promise<string | null> {
      const result = (await manager.query(
        `UPDATE magic_links SET consumed_at = $3
         WHERE project_id = $1 AND token_hash = $2 AND consumed_at IS NULL AND expires_at > $3
         RETURNING email`,
        [projectId, tokenHash, now],
      )) as [Array<{ email: string }>, number];
      return result[0]?.[0]?.email ?? null;
    },
  };
}

export type MagicLinksRepository = ReturnType<typeof magicLinksRepository>;
