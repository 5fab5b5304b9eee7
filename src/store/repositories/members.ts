import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import { normalizeEmail, type Member, type MemberRole } from "../../domain/account.js";
import type { Clock } from "../../domain/clock.js";
import type { MemberIdentity, Membership } from "../../domain/member-identity.js";
import type { PageRequest } from "../../domain/pagination.js";
import { MemberEntity } from "../entities/member.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { keysetTail } from "../keyset.js";
import { empty, entityColumns, oneOf, row, sql, statements, text, type Statement } from "../sql/index.js";

/** Shared with the statements that join a membership (management-tokens.ts). */
export const MEMBER = entityColumns(MemberEntity, { narrow: { role: oneOf("admin", "developer") } });
// Not the identity's columns: its email alone, and its organization's name for Login.
const identityEmail = row({ email: text });
const organizationName = row({ organizationName: text });

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
  const m = MEMBER.on(manager).joined("m");
  // The identity's email only: a membership never carries its password hash along.
  const mapped = (r: unknown): Member => toMember(m.decode(r), identityEmail(r).email);
  const withIdentity = (where: Statement, tail: Statement = empty) =>
    run.rows(
      sql`SELECT ${m.list}, i.email FROM members m JOIN member_identities i ON i.id = m.identity_id WHERE ${where}${tail}`,
      mapped,
    );

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
      const [member] = await withIdentity(
        sql`m.organization_id = ${organizationId} AND i.email_normalized = ${normalizeEmail(email)}`,
      );
      return member ?? null;
    },

    async get(organizationId: string, id: string): Promise<Member | null> {
      const [member] = await withIdentity(sql`m.organization_id = ${organizationId} AND m.id = ${id}`);
      return member ?? null;
    },

    /** One page of the organization's members, newest first, plus one row to tell whether more follow. */
    async list(organizationId: string, page: PageRequest): Promise<Member[]> {
      return withIdentity(sql`m.organization_id = ${organizationId}`, keysetTail(page, "m"));
    },

    /** The identity's memberships with their organizations' names, by name (then age), for Login. */
    async listForIdentity(identityId: string): Promise<Membership[]> {
      return run.rows(
        sql`SELECT ${m.list}, i.email, o.name AS "organizationName"
            FROM members m JOIN member_identities i ON i.id = m.identity_id JOIN organizations o ON o.id = m.organization_id
            WHERE m.identity_id = ${identityId}
            ORDER BY o.name, o.created_at, o.id`,
        (r) => ({ member: mapped(r), organizationName: organizationName(r).organizationName }),
      );
    },

    /**
     * Counts the organization's admins and locks their rows until the transaction ends, so two
     * removals of the last two admins run one after the other and the second sees one admin.
     */
    async lockAdmins(organizationId: string): Promise<number> {
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
