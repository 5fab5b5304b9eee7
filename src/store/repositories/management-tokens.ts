import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { ManagementToken, Member, MemberRole } from "../../domain/account.js";
import type { Clock } from "../../domain/clock.js";
import { ManagementTokenEntity } from "../entities/management-token.entity.js";
import { translateUniqueViolation } from "../errors.js";

export interface CreateManagementTokenInput {
  organizationId: string;
  memberId: string;
  tokenHash: string;
  expiresAt: Date;
}

export interface ActiveManagementToken {
  /** The token's row id (`mtk_…`): what Logout revokes. */
  id: string;
  member: Member;
  organizationId: string;
  expiresAt: Date;
}

// A revoked token is a deleted row: the credential check reads the table on every request, on
// every instance, so a revocation takes effect everywhere once it commits.
export function managementTokensRepository(manager: EntityManager, clock: Clock) {
  return {
    async create(input: CreateManagementTokenInput): Promise<ManagementToken> {
      const row: ManagementTokenEntity = { id: newId("mtk"), ...input, createdAt: clock.now() };
      await translateUniqueViolation(() => manager.insert(ManagementTokenEntity, row));
      const { tokenHash: _hash, ...token } = row;
      return token;
    },

    /** The credential check of every Account RPC: expired tokens are as good as absent. */
    async findActive(tokenHash: string, now: Date): Promise<ActiveManagementToken | null> {
      const rows = (await manager.query(
        `SELECT t.id, t.organization_id, t.expires_at, m.id AS member_id, m.role, m.created_at, i.email
         FROM management_tokens t
         JOIN members m ON m.id = t.member_id AND m.organization_id = t.organization_id
         JOIN member_identities i ON i.id = m.identity_id
         WHERE t.token_hash = $1 AND t.expires_at > $2`,
        [tokenHash, now],
      )) as Array<{ id: string; organization_id: string; expires_at: Date; member_id: string; role: MemberRole; created_at: Date; email: string }>;
      const row = rows[0];
      if (!row) return null;
      return {
        id: row.id,
        member: { id: row.member_id, organizationId: row.organization_id, email: row.email, role: row.role, createdAt: row.created_at },
        organizationId: row.organization_id,
        expiresAt: row.expires_at,
      };
    },

    /** Logout: the one token, of this member in this organization. */
    async revoke(organizationId: string, memberId: string, id: string): Promise<boolean> {
      const result = await manager.delete(ManagementTokenEntity, { organizationId, memberId, id });
      return (result.affected ?? 0) > 0;
    },

    /**
     * Every token of the identity, in every organization it belongs to, but `exceptId` (the
     * token of the request that changed the password). Answers how many were revoked.
     */
    async revokeForIdentity(identityId: string, exceptId?: string): Promise<number> {
      const result = (await manager.query(
        `DELETE FROM management_tokens t USING members m
         WHERE m.id = t.member_id AND m.organization_id = t.organization_id AND m.identity_id = $1 AND t.id <> $2`,
        [identityId, exceptId ?? ""],
      )) as [unknown[], number];
      return result[1];
    },
  };
}

export type ManagementTokensRepository = ReturnType<typeof managementTokensRepository>;
