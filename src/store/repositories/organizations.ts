import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { Organization } from "../../domain/account.js";
import { OrganizationEntity } from "../entities/organization.entity.js";
import { translateUniqueViolation } from "../errors.js";
import type { Clock } from "../../domain/clock.js";
import { int, row, sql, statements } from "../sql/index.js";

export function toOrganization(e: OrganizationEntity): Organization {
  return { id: e.id, name: e.name, requireMemberMfa: e.requireMemberMfa, createdAt: e.createdAt };
}

const oneRow = row({ one: int });

export function organizationsRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
  return {
    async create(input: { name: string }): Promise<Organization> {
      const row: OrganizationEntity = {
        id: newId("org"),
        name: input.name,
        requireMemberMfa: false,
        createdAt: clock.now(),
      };
      await translateUniqueViolation(() => manager.insert(OrganizationEntity, row));
      return toOrganization(row);
    },

    async get(id: string): Promise<Organization | null> {
      const row = await manager.findOneBy(OrganizationEntity, { id });
      return row ? toOrganization(row) : null;
    },

    /** Sets the member MFA policy; answers the organization as it is now (null: unknown). */
    async setRequireMemberMfa(id: string, requireMemberMfa: boolean): Promise<Organization | null> {
      await manager.update(OrganizationEntity, { id }, { requireMemberMfa });
      const row = await manager.findOneBy(OrganizationEntity, { id });
      return row ? toOrganization(row) : null;
    },

    /** Whether an organization the identity belongs to requires a second factor of its members. */
    async requiresMemberMfaOf(identityId: string): Promise<boolean> {
      const found = await run.first(
        sql`SELECT 1 AS one FROM members m JOIN organizations o ON o.id = m.organization_id
            WHERE m.identity_id = ${identityId} AND o.require_member_mfa LIMIT 1`,
        oneRow,
      );
      return found !== null;
    },

    /** Every organization, oldest first: for an operator (`gatehouse org list`), never for a member. */
    async listAll(): Promise<Organization[]> {
      const rows = await manager.find(OrganizationEntity, { order: { createdAt: "ASC", id: "ASC" } });
      return rows.map(toOrganization);
    },
  };
}

export type OrganizationsRepository = ReturnType<typeof organizationsRepository>;
