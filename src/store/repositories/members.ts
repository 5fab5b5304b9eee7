import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import { normalizeEmail, type Member, type MemberCredentials, type MemberRole } from "../../domain/account.js";
import { MemberEntity } from "../entities/member.entity.js";
import { translateUniqueViolation } from "../errors.js";
import type { Clock } from "../../domain/clock.js";
import type { PageRequest } from "../../domain/pagination.js";
import { keysetPage } from "../keyset.js";

export function toMember(e: MemberEntity): Member {
  return { id: e.id, organizationId: e.organizationId, email: e.email, role: e.role, createdAt: e.createdAt };
}

export interface CreateMemberInput {
  organizationId: string;
  email: string;
  role: MemberRole;
  passwordHash: string;
}

export function membersRepository(manager: EntityManager, clock: Clock) {
  return {
    /** Throws UniqueViolation("members_email_normalized_key") when the email is taken in any organization. */
    async create(input: CreateMemberInput): Promise<Member> {
      const row: MemberEntity = {
        id: newId("mem"),
        organizationId: input.organizationId,
        email: input.email,
        emailNormalized: normalizeEmail(input.email),
        role: input.role,
        passwordHash: input.passwordHash,
        createdAt: clock.now(),
      };
      await translateUniqueViolation(() => manager.insert(MemberEntity, row));
      return toMember(row);
    },

    /** Sign-in lookup: by email alone, across organizations (the email is globally unique). */
    async findCredentialsByEmail(email: string): Promise<MemberCredentials | null> {
      const row = await manager.findOneBy(MemberEntity, { emailNormalized: normalizeEmail(email) });
      return row ? { member: toMember(row), passwordHash: row.passwordHash } : null;
    },

    async findByEmail(email: string): Promise<Member | null> {
      const row = await manager.findOneBy(MemberEntity, { emailNormalized: normalizeEmail(email) });
      return row ? toMember(row) : null;
    },

    async get(organizationId: string, id: string): Promise<Member | null> {
      const row = await manager.findOneBy(MemberEntity, { organizationId, id });
      return row ? toMember(row) : null;
    },

    /** One page of the organization's members, newest first, plus one row to tell whether more follow. */
    async list(organizationId: string, page: PageRequest): Promise<Member[]> {
      const qb = manager.createQueryBuilder(MemberEntity, "m").where("m.organizationId = :organizationId", { organizationId });
      const rows = await keysetPage(qb, "m", page).getMany();
      return rows.map(toMember);
    },

    /** Used after a successful sign-in when the stored hash used outdated parameters. */
    async updatePasswordHash(memberId: string, passwordHash: string): Promise<void> {
      await manager.update(MemberEntity, { id: memberId }, { passwordHash });
    },
  };
}

export type MembersRepository = ReturnType<typeof membersRepository>;
