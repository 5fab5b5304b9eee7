import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { ManagementToken, Member } from "../../domain/account.js";
import type { Clock } from "../../domain/clock.js";
import { ManagementTokenEntity } from "../entities/management-token.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { row, sql, statements, text, timestamp } from "../sql/index.js";
import { MEMBER, toMember } from "./members.js";

// The token's own columns the check answers, beside the member's (derived) and its identity's email.
const tokenOfMember = row({ tokenId: text, expiresAt: timestamp, email: text });

export interface CreateManagementTokenInput {
  memberId: string;
  tokenHash: string;
  expiresAt: Date;
  /** Issued after a second factor; absent: a password (or invitation link) alone. */
  secondFactor?: boolean;
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
  const run = statements(manager);
  const m = MEMBER.on(manager).joined("m");
  const active = (r: unknown): ActiveManagementToken => {
    const token = tokenOfMember(r);
    const member = m.decode(r);
    return {
      id: token.tokenId,
      member: toMember(member, token.email),
      organizationId: member.organizationId,
      expiresAt: token.expiresAt,
    };
  };
  return {
    async create(organizationId: string, input: CreateManagementTokenInput): Promise<ManagementToken> {
      const row: ManagementTokenEntity = {
        id: newId("mtk"),
        organizationId,
        memberId: input.memberId,
        tokenHash: input.tokenHash,
        expiresAt: input.expiresAt,
        secondFactor: input.secondFactor ?? false,
        createdAt: clock.now(),
      };
      await translateUniqueViolation(() => manager.insert(ManagementTokenEntity, row));
      return { id: row.id, organizationId, memberId: row.memberId, expiresAt: row.expiresAt, createdAt: row.createdAt };
    },

    /** The credential check of every Account RPC: expired tokens are as good as absent. */
    async findActive(tokenHash: string, now: Date): Promise<ActiveManagementToken | null> {
      // The member through the composite key (same organization), its email from the identity.
      return run.first(
        sql`SELECT t.id AS "tokenId", t.expires_at AS "expiresAt", ${m.list}, i.email
            FROM management_tokens t
            JOIN members m ON m.organization_id = t.organization_id AND m.id = t.member_id
            JOIN member_identities i ON i.id = m.identity_id
            WHERE t.token_hash = ${tokenHash} AND t.expires_at > ${now}`,
        active,
      );
    },

    /** Logout: the one token, of this member in this organization. */
    async revoke(organizationId: string, memberId: string, id: string): Promise<boolean> {
      const result = await manager.delete(ManagementTokenEntity, { organizationId, memberId, id });
      return (result.affected ?? 0) > 0;
    },

    /**
     * The organization's tokens issued without a second factor, but `exceptId` (the token of the
     * admin who turned require_member_mfa on). Answers how many were revoked.
     */
    async revokeWithoutSecondFactor(organizationId: string, exceptId: string): Promise<number> {
      return run.affected(
        sql`DELETE FROM management_tokens WHERE organization_id = ${organizationId} AND NOT second_factor AND id <> ${exceptId}`,
      );
    },

    /**
     * Every token of the identity, in every organization it belongs to, but `exceptId` (the
     * token of the request that changed the password). Answers how many were revoked.
     */
    async revokeForIdentity(identityId: string, exceptId?: string): Promise<number> {
      // DELETE … USING: one statement across the identity's memberships, which the Repository API cannot state.
      return run.affected(sql`
        DELETE FROM management_tokens t USING members m
        WHERE m.id = t.member_id AND m.organization_id = t.organization_id AND m.identity_id = ${identityId} AND t.id <> ${exceptId ?? ""}`);
    },
  };
}

export type ManagementTokensRepository = ReturnType<typeof managementTokensRepository>;
