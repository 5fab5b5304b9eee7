import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { ManagementToken, Member } from "../../domain/account.js";
import { ManagementTokenEntity } from "../entities/management-token.entity.js";
import { MemberEntity } from "../entities/member.entity.js";
import { translateUniqueViolation } from "../errors.js";
import type { Clock } from "../../domain/clock.js";
import { toMember } from "./members.js";

export interface CreateManagementTokenInput {
  organizationId: string;
  memberId: string;
  tokenHash: string;
  expiresAt: Date;
}

export interface ActiveManagementToken {
  member: Member;
  organizationId: string;
  expiresAt: Date;
}

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
      const row = await manager
        .createQueryBuilder(ManagementTokenEntity, "t")
        .innerJoinAndMapOne(
          "t.member",
          MemberEntity,
          "m",
          "m.id = t.memberId AND m.organizationId = t.organizationId",
        )
        .where("t.tokenHash = :tokenHash", { tokenHash })
        .andWhere("t.expiresAt > :now", { now })
        .getOne();
      if (!row) return null;
      const member = (row as ManagementTokenEntity & { member: MemberEntity }).member;
      return { member: toMember(member), organizationId: row.organizationId, expiresAt: row.expiresAt };
    },
  };
}

export type ManagementTokensRepository = ReturnType<typeof managementTokensRepository>;
