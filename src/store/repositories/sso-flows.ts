import type { EntityManager } from "typeorm";
import type { SsoFlow } from "../../domain/sso.js";
import { SsoFlowEntity } from "../entities/sso-flow.entity.js";
import { nullable, row, sql, statements, text, timestamp } from "../sql/index.js";

const flowRow = row({
  id: text,
  project_id: text,
  connection_id: text,
  nonce_sealed: text,
  verifier_sealed: text,
  redirect_url: text,
  code_challenge: nullable(text),
  expires_at: timestamp,
});

// The flows between SsoAuthorize and the callback. Not tenant-scoped on read: the callback
// knows nothing but the state, and the flow names its project.
export function ssoFlowsRepository(manager: EntityManager) {
  const run = statements(manager);
  return {
    /** The flow is stored in `projectId`, whatever project `flow` names. */
    async create(projectId: string, stateHash: string, flow: SsoFlow, now: Date): Promise<void> {
      await manager.insert(SsoFlowEntity, {
        stateHash,
        id: flow.id,
        projectId,
        connectionId: flow.connectionId,
        nonceSealed: flow.nonceSealed,
        verifierSealed: flow.verifierSealed,
        redirectUrl: flow.redirectUrl,
        codeChallenge: flow.codeChallenge,
        expiresAt: flow.expiresAt,
        consumedAt: null,
        createdAt: now,
      });
    },

    /**
     * Spends the flow of a state (one conditional UPDATE: a state works once, however many
     * callbacks race) and answers it, expired or not; null when unknown or used.
     */
    async consume(stateHash: string, now: Date): Promise<SsoFlow | null> {
      const spent = await run.first(
        sql`UPDATE sso_flows SET consumed_at = ${now} WHERE state_hash = ${stateHash} AND consumed_at IS NULL
            RETURNING id, project_id, connection_id, nonce_sealed, verifier_sealed, redirect_url, code_challenge, expires_at`,
        flowRow,
      );
      return spent
        ? {
            id: spent.id,
            projectId: spent.project_id,
            connectionId: spent.connection_id,
            nonceSealed: spent.nonce_sealed,
            verifierSealed: spent.verifier_sealed,
            redirectUrl: spent.redirect_url,
            codeChallenge: spent.code_challenge,
            expiresAt: spent.expires_at,
          }
        : null;
    },
  };
}

export type SsoFlowsRepository = ReturnType<typeof ssoFlowsRepository>;
