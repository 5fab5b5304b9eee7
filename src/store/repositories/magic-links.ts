import type { EntityManager } from "typeorm";

/** What a signup waiting for its address to be confirmed makes the user with (signup-confirmation.ts). */
export interface PendingSignup {
  passwordHash: string;
  metadata: Record<string, unknown>;
}

/** A link spent: the address it was sent to, and the signup it confirms, if it is one. */
export interface ConsumedLink {
  email: string;
  signup: PendingSignup | null;
}

// Sign-in links, one live link per email: a new send overwrites the row, so the previous link
// dies. The token is 256 random bits, stored as SHA-256 and burned by one conditional UPDATE.
// A signup waiting for confirmation is such a link with its password hash and metadata.
export function magicLinksRepository(manager: EntityManager) {
  return {
    /**
     * Stores a new link for the email unless the last one was sent less than `minIntervalMs`
     * ago (then the answer is the time of that send), in one upsert. A pending signup does not
     * hold the interval: any later request replaces it, so whether a signup left one behind
     * (only for an unregistered address) never shows as a refused SendMagicLink.
     */
    async replace(
      projectId: string,
      input: { emailNormalized: string; email: string; tokenHash: string; now: Date; expiresAt: Date; minIntervalMs: number; signup?: PendingSignup },
    ): Promise<{ stored: true } | { stored: false; lastSentAt: Date }> {
      const notBefore = new Date(input.now.getTime() - input.minIntervalMs);
      const result = (await manager.query(
        `INSERT INTO magic_links (project_id, email_normalized, email, token_hash, sent_at, expires_at, signup_password_hash, signup_metadata)
         VALUES ($1, $2, $3, $4, $5, $6, $8, $9)
         ON CONFLICT (project_id, email_normalized) DO UPDATE
           SET email = EXCLUDED.email, token_hash = EXCLUDED.token_hash, sent_at = EXCLUDED.sent_at,
               expires_at = EXCLUDED.expires_at, consumed_at = NULL,
               signup_password_hash = EXCLUDED.signup_password_hash, signup_metadata = EXCLUDED.signup_metadata
           WHERE magic_links.sent_at <= $7 OR magic_links.signup_password_hash IS NOT NULL
         RETURNING sent_at`,
        [
          projectId,
          input.emailNormalized,
          input.email,
          input.tokenHash,
          input.now,
          input.expiresAt,
          notBefore,
          input.signup?.passwordHash ?? null,
          input.signup ? JSON.stringify(input.signup.metadata) : null,
        ],
      )) as Array<{ sent_at: Date }>;
      if (result.length > 0) return { stored: true };
      const rows = (await manager.query(`SELECT sent_at FROM magic_links WHERE project_id = $1 AND email_normalized = $2`, [
        projectId,
        input.emailNormalized,
      ])) as Array<{ sent_at: Date }>;
      return { stored: false, lastSentAt: new Date(rows[0]?.sent_at ?? input.now) };
    },

    /**
     * Burns a live link and answers what it was for; null when unknown, used, replaced or
     * expired. A pending signup's password hash and metadata leave the row as it is spent (the
     * self-join reads them as they were before this statement).
     */
    async consume(projectId: string, tokenHash: string, now: Date): Promise<ConsumedLink | null> {
      const result = (await manager.query(
        `UPDATE magic_links m SET consumed_at = $3, signup_password_hash = NULL, signup_metadata = NULL
         FROM magic_links was
         WHERE m.project_id = $1 AND m.token_hash = $2 AND m.consumed_at IS NULL AND m.expires_at > $3
           AND was.project_id = m.project_id AND was.email_normalized = m.email_normalized
         RETURNING m.email, was.signup_password_hash, was.signup_metadata`,
        [projectId, tokenHash, now],
      )) as [Array<{ email: string; signup_password_hash: string | null; signup_metadata: Record<string, unknown> | null }>, number];
      const row = result[0]?.[0];
      if (!row) return null;
      const signup = row.signup_password_hash === null ? null : { passwordHash: row.signup_password_hash, metadata: row.signup_metadata ?? {} };
      return { email: row.email, signup };
    },
  };
}

export type MagicLinksRepository = ReturnType<typeof magicLinksRepository>;
