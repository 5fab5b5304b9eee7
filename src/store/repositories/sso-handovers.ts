import type { EntityManager } from "typeorm";
import type { SsoHandover } from "../../domain/sso.js";
import { SsoHandoverEntity } from "../entities/sso-handover.entity.js";
import { nullable, row, sql, statements, text, timestamp } from "../sql/index.js";

const handoverRow = row({
  connection_id: text,
  code_challenge: text,
  issuer: text,
  subject: text,
  email: text,
  new_user_metadata_sealed: nullable(text),
  expires_at: timestamp,
});

// The code handover's one-minute codes, stored as SHA-256 and spent by one conditional UPDATE.
export function ssoHandoversRepository(manager: EntityManager) {
  const run = statements(manager);
  return {
    async create(projectId: string, codeHash: string, handover: SsoHandover, now: Date): Promise<void> {
      await manager.insert(SsoHandoverEntity, {
        codeHash,
        projectId,
        connectionId: handover.connectionId,
        codeChallenge: handover.codeChallenge,
        issuer: handover.issuer,
        subject: handover.subject,
        email: handover.email,
        newUserMetadataSealed: handover.newUserMetadataSealed,
        expiresAt: handover.expiresAt,
        consumedAt: null,
        createdAt: now,
      });
    },

    /** Spends the code and answers it, expired or not; null when unknown, used or of another project. */
    async consume(projectId: string, codeHash: string, now: Date): Promise<SsoHandover | null> {
      const spent = await run.first(
        sql`UPDATE sso_handovers SET consumed_at = ${now} WHERE project_id = ${projectId} AND code_hash = ${codeHash} AND consumed_at IS NULL
            RETURNING connection_id, code_challenge, issuer, subject, email, new_user_metadata_sealed, expires_at`,
        handoverRow,
      );
      return spent
        ? {
            connectionId: spent.connection_id,
            codeChallenge: spent.code_challenge,
            issuer: spent.issuer,
            subject: spent.subject,
            email: spent.email,
            newUserMetadataSealed: spent.new_user_metadata_sealed,
            expiresAt: spent.expires_at,
          }
        : null;
    },
  };
}

export type SsoHandoversRepository = ReturnType<typeof ssoHandoversRepository>;
