import type { EntityManager } from "typeorm";
import type { SsoFlow } from "../../domain/sso.js";

interface FlowRow {
  id: string;
  project_id: string;
  connection_id: string;
  nonce_sealed: string;
  verifier_sealed: string;
  redirect_url: string;
  code_challenge: string | null;
  expires_at: Date;
}

// The flows between SsoAuthorize and the callback. Not tenant-scoped on read: the callback
// knows nothing but the state, and the flow names its project.
export function ssoFlowsRepository(manager: EntityManager) {
  return {
    async create(stateHash: string, flow: SsoFlow, now: Date): Promise<void> {
      await manager.query(
        `INSERT INTO sso_flows (state_hash, id, project_id, connection_id, nonce_sealed, verifier_sealed, redirect_url, code_challenge, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [stateHash, flow.id, flow.projectId, flow.connectionId, flow.nonceSealed, flow.verifierSealed, flow.redirectUrl, flow.codeChallenge, flow.expiresAt, now],
      );
    },

    /**
     * Spends the flow of a state (one conditional UPDATE: a state works once, however many
     * callbacks race) and answers it, expired or not; null when unknown or used.
     */
    async consume(stateHash: string, now: Date): Promise<SsoFlow | null> {
      const result = (await manager.query(
        `UPDATE sso_flows SET consumed_at = $2 WHERE state_hash = $1 AND consumed_at IS NULL
         RETURNING id, project_id, connection_id, nonce_sealed, verifier_sealed, redirect_url, code_challenge, expires_at`,
        [stateHash, now],
      )) as [FlowRow[], number];
      const row = result[0]?.[0];
      return row
        ? {
            id: row.id,
            projectId: row.project_id,
            connectionId: row.connection_id,
            nonceSealed: row.nonce_sealed,
            verifierSealed: row.verifier_sealed,
            redirectUrl: row.redirect_url,
            codeChallenge: row.code_challenge,
            expiresAt: new Date(row.expires_at),
          }
        : null;
    },
  };
}

export type SsoFlowsRepository = ReturnType<typeof ssoFlowsRepository>;
