import type { EntityManager } from "typeorm";
import { MagicLinkEntity } from "../entities/magic-link.entity.js";
import { jsonObject, nullable, row, sql, statements, text, timestamp } from "../sql/index.js";

/** What a signup waiting for its address to be confirmed makes the user with (signup-confirmation.ts). */
export interface PendingSignup {
  passwordHash: string;
  metadata: Record<string, unknown>;
  /** Canonical BCP 47, as the signup gave it; "" or absent: none. */
  locale?: string;
}

/** A link spent: the address it was sent to, and the signup it confirms, if it is one. */
export interface ConsumedLink {
  email: string;
  signup: PendingSignup | null;
}

const sentRow = row({ sent_at: timestamp });
const spentRow = row({
  email: text,
  signup_password_hash: nullable(text),
  signup_metadata: nullable(jsonObject),
  signup_locale: nullable(text),
});

// Sign-in links, one live link per email: a new send overwrites the row, so the previous link
// dies. The token is 256 random bits, stored as SHA-256 and burned by one conditional UPDATE.
// A signup waiting for confirmation is such a link with its password hash and metadata.
export function magicLinksRepository(manager: EntityManager) {
  const run = statements(manager);
  return {
    /**
     * Stores a new link for the email unless the last one was sent less than `minIntervalMs`
     * ago (then the answer is the time of that send), in one upsert. A pending signup does not
     * hold the interval: any later request replaces it, so whether a signup left one behind
     * (only for an unregistered address) never shows as a refused SendMagicLink.
     */
    async replace(
      projectId: string,
      input: {
        emailNormalized: string;
        email: string;
        tokenHash: string;
        now: Date;
        expiresAt: Date;
        minIntervalMs: number;
        signup?: PendingSignup;
      },
    ): Promise<{ stored: true } | { stored: false; lastSentAt: Date }> {
      const notBefore = new Date(input.now.getTime() - input.minIntervalMs);
      const stored = await run.first(
        sql`INSERT INTO magic_links (project_id, email_normalized, email, token_hash, sent_at, expires_at, signup_password_hash, signup_metadata,
                                 signup_locale)
            VALUES (${projectId}, ${input.emailNormalized}, ${input.email}, ${input.tokenHash}, ${input.now}, ${input.expiresAt},
                    ${input.signup?.passwordHash ?? null}, ${input.signup ? JSON.stringify(input.signup.metadata) : null},
                    ${input.signup ? (input.signup.locale ?? "") : null})
            ON CONFLICT (project_id, email_normalized) DO UPDATE
              SET email = EXCLUDED.email, token_hash = EXCLUDED.token_hash, sent_at = EXCLUDED.sent_at,
                  expires_at = EXCLUDED.expires_at, consumed_at = NULL,
                  signup_password_hash = EXCLUDED.signup_password_hash, signup_metadata = EXCLUDED.signup_metadata,
                  signup_locale = EXCLUDED.signup_locale
              WHERE magic_links.sent_at <= ${notBefore} OR magic_links.signup_password_hash IS NOT NULL
            RETURNING sent_at`,
        sentRow,
      );
      if (stored) return { stored: true };
      const last = await manager.findOne(MagicLinkEntity, {
        select: { projectId: true, emailNormalized: true, sentAt: true },
        where: { projectId, emailNormalized: input.emailNormalized },
      });
      return { stored: false, lastSentAt: last?.sentAt ?? input.now };
    },

    /**
     * Burns a live link and answers what it was for; null when unknown, used, replaced or
     * expired. A pending signup's password hash and metadata leave the row as it is spent (the
     * self-join reads them as they were before this statement).
     */
    async consume(projectId: string, tokenHash: string, now: Date): Promise<ConsumedLink | null> {
      const spent = await run.first(
        sql`UPDATE magic_links m SET consumed_at = ${now}, signup_password_hash = NULL, signup_metadata = NULL, signup_locale = NULL
            FROM magic_links was
            WHERE m.project_id = ${projectId} AND m.token_hash = ${tokenHash} AND m.consumed_at IS NULL AND m.expires_at > ${now}
              AND was.project_id = m.project_id AND was.email_normalized = m.email_normalized
            RETURNING m.email, was.signup_password_hash, was.signup_metadata, was.signup_locale`,
        spentRow,
      );
      if (!spent) return null;
      const signup =
        spent.signup_password_hash === null
          ? null
          : {
              passwordHash: spent.signup_password_hash,
              metadata: spent.signup_metadata ?? {},
              locale: spent.signup_locale ?? "",
            };
      return { email: spent.email, signup };
    },
  };
}

export type MagicLinksRepository = ReturnType<typeof magicLinksRepository>;
