import type { EntityManager } from "typeorm";
import type { SsoHandover } from "../../domain/sso.js";

interface HandoverRow {
  connection_id: string;
  code_challenge: string;
  issuer: string;
  subject: string;
  email: string;
  expires_at: Date;
}

// The code handover's one-minute codes, stored as SHA-256 and spent by one conditional UPDATE.
export function ssoHandoversRepository(manager: EntityManager) {
  return {
    async create(projectId: string, codeHash: string, handover: SsoHandover, now: Date): Promise<void> {
      await manager.query(
        `INSERT INTO sso_handovers (code_hash, project_id, connection_id, code_challenge, issuer, subject, email, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [codeHash, projectId, handover.connectionId, handover.codeChallenge, handover.issuer, handover.subject, handover.email, handover.expiresAt, now],
      );
    },

    /** Spends the code and answers it, expired or not; null when unknown, used or of another project. */
    async consume(projectId: string, codeHash: string, now: Date): Promise<SsoHandover | null> {
      const result = (await manager.query(
        `UPDATE sso_handovers SET consumed_at = $3 WHERE project_id = $1 AND code_hash = $2 AND consumed_at IS NULL
         RETURNING connection_id, code_challenge, issuer, subject, email, expires_at`,
        [projectId, codeHash, now],
      )) as [HandoverRow[], number];
      const row = result[0]?.[0];
      return row
        ? { connectionId: row.connection_id, codeChallenge: row.code_challenge, issuer: row.issuer, subject: row.subject, email: row.email, expiresAt: new Date(row.expires_at) }
        : null;
    },
  };
}

export type SsoHandoversRepository = ReturnType<typeof ssoHandoversRepository>;
