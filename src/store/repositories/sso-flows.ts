import type { EntityManager } from "typeorm";
import type { SsoFlow } from "../../domain/sso.js";
import { SsoFlowEntity } from "../entities/sso-flow.entity.js";
import { entityColumns, sql, statements } from "../sql/index.js";

const FLOW = entityColumns(SsoFlowEntity, { omit: ["stateHash", "consumedAt", "createdAt"] });

// The flows between SsoAuthorize and the callback. Not tenant-scoped on read: the callback
// knows nothing but the state, and the flow names its project.
export function ssoFlowsRepository(manager: EntityManager) {
  const run = statements(manager);
  const flowColumns = FLOW.on(manager);
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
            RETURNING ${flowColumns.list}`,
        flowColumns.decode,
      );
      return spent
        ? {
            id: spent.id,
            projectId: spent.projectId,
            connectionId: spent.connectionId,
            nonceSealed: spent.nonceSealed,
            verifierSealed: spent.verifierSealed,
            redirectUrl: spent.redirectUrl,
            codeChallenge: spent.codeChallenge,
            expiresAt: spent.expiresAt,
          }
        : null;
    },
  };
}

export type SsoFlowsRepository = ReturnType<typeof ssoFlowsRepository>;
