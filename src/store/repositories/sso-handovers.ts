import type { EntityManager } from "typeorm";
import type { SsoHandover } from "../../domain/sso.js";
import { SsoHandoverEntity } from "../entities/sso-handover.entity.js";
import { entityColumns, sql, statements } from "../sql/index.js";

const HANDOVER = entityColumns(SsoHandoverEntity, { omit: ["codeHash", "projectId", "consumedAt", "createdAt"] });

// The code handover's one-minute codes, stored as SHA-256 and spent by one conditional UPDATE.
export function ssoHandoversRepository(manager: EntityManager) {
  const run = statements(manager);
  const handoverColumns = HANDOVER.on(manager);
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
            RETURNING ${handoverColumns.list}`,
        handoverColumns.decode,
      );
      return spent
        ? {
            connectionId: spent.connectionId,
            codeChallenge: spent.codeChallenge,
            issuer: spent.issuer,
            subject: spent.subject,
            email: spent.email,
            newUserMetadataSealed: spent.newUserMetadataSealed,
            expiresAt: spent.expiresAt,
          }
        : null;
    },
  };
}

export type SsoHandoversRepository = ReturnType<typeof ssoHandoversRepository>;
