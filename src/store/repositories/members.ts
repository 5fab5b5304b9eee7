import type { EntityManager, SelectQueryBuilder } from "typeorm";
import { newId } from "../../crypto/ids.js";
import { normalizeEmail, type Member, type MemberRole } from "../../domain/account.js";
import type { Clock } from "../../domain/clock.js";
import type { MemberIdentity, Membership } from "../../domain/member-identity.js";
import type { PageRequest } from "../../domain/pagination.js";
import { MemberEntity } from "../entities/member.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { keysetPage } from "../keyset.js";
import { sql, statements } from "../sql/index.js";

/** A membership row and the email of its identity. */
export function toMember(e: MemberEntity, email: string): Member {
  return { id: e.id, organizationId: e.organizationId, email, role: e.role, createdAt: e.createdAt };
}

export interface CreateMemberInput {
  identity: MemberIdentity;
  role: MemberRole;
}

// Memberships: every call names the organization, except listForIdentity, which serves Login
// (the identity has just proved its password and chooses among its own organizations).
export function membersRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
  // The identity's id and email only: a membership never carries its password hash along.
  const withIdentity = (): SelectQueryBuilder<MemberEntity> =>
    manager.createQueryBuilder(MemberEntity, "m").innerJoin("m.identity", "i").addSelect(["i.id", "i.email"]);
  const mapped = (row: MemberEntity): Member => toMember(row, row.identity!.email);

  return {
    /** Throws UniqueViolation("members_organization_identity_key") when the identity is already a member here. */
    async create(organizationId: string, input: CreateMemberInput): Promise<Member> {
      const row: MemberEntity = {
        id: newId("mem"),
        organizationId,
        identityId: input.identity.id,
        role: input.role,
        createdAt: clock.now(),
      };
      await translateUniqueViolation(() => manager.insert(MemberEntity, row));
      return toMember(row, input.identity.email);
    },

    /** The member of this organization with this email, if any; other organizations are invisible. */
    async findByEmail(organizationId: string, email: string): Promise<Member | null> {
      const row = await withIdentity()
        .where("m.organizationId = :organizationId", { organizationId })
        .andWhere("i.emailNormalized = :email", { email: normalizeEmail(email) })
        .getOne();
      return row ? mapped(row) : null;
    },

    async get(organizationId: string, id: string): Promise<Member | null> {
      const row = await withIdentity()
        .where("m.organizationId = :organizationId", { organizationId })
        .andWhere("m.id = :id", { id })
        .getOne();
      return row ? mapped(row) : null;
    },

    /** One page of the organization's members, newest first, plus one row to tell whether more follow. */
    async list(organizationId: string, page: PageRequest): Promise<Member[]> {
      const qb = withIdentity().where("m.organizationId = :organizationId", { organizationId });
      const rows = await keysetPage(qb, "m", page).getMany();
      return rows.map(mapped);
    },

    /** The identity's memberships with their organizations' names, by name (then age), for Login. */
    async listForIdentity(identityId: string): Promise<Membership[]> {
      const rows = await withIdentity()
        .innerJoin("m.organization", "o")
        .addSelect(["o.id", "o.name"])
        .where("m.identityId = :identityId", { identityId })
        .orderBy("o.name")
        .addOrderBy("o.createdAt")
        .addOrderBy("o.id")
        .getMany();
      return rows.map((r) => ({ member: mapped(r), organizationName: r.organization!.name }));
    },

    /**
     * Counts the organization's admins and locks their rows until the transaction ends, so two
     * removals of the last two admins run one after the other and the second sees one admin.
     */
    async lockAdmins(organizationId: string): Promise<number> {
      // A plain statement: the QueryBuilder's setLock refuses to run outside a transaction.
      return run.affected(
        sql`SELECT id FROM members WHERE organization_id = ${organizationId} AND role = 'admin' ORDER BY id FOR UPDATE`,
      );
    },

    /** Sets the member's role; false when not there. Demoting an admin: lockAdmins first, in the same transaction. */
    async setRole(organizationId: string, id: string, role: MemberRole): Promise<boolean> {
      const result = await manager.update(MemberEntity, { organizationId, id }, { role });
      return (result.affected ?? 0) > 0;
    },

    /** Deletes the membership (its management tokens go with it, by cascade); false when not there. */
    async remove(organizationId: string, id: string): Promise<boolean> {
      const result = await manager.delete(MemberEntity, { organizationId, id });
      return (result.affected ?? 0) > 0;
    },
  };
}

export type MembersRepository = ReturnType<typeof membersRepository>;
