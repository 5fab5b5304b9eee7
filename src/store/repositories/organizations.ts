import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { Organization } from "../../domain/account.js";
import { OrganizationEntity } from "../entities/organization.entity.js";
import { translateUniqueViolation } from "../errors.js";
import type { Clock } from "../../domain/clock.js";

export function toOrganization(e: OrganizationEntity): Organization {
  return { id: e.id, name: e.name, createdAt: e.createdAt };
}

export function organizationsRepository(manager: EntityManager, clock: Clock) {
  return {
    async create(input: { name: string }): Promise<Organization> {
      const row: OrganizationEntity = { id: newId("org"), name: input.name, createdAt: clock.now() };
      await translateUniqueViolation(() => manager.insert(OrganizationEntity, row));
      return toOrganization(row);
    },

    async get(id: string): Promise<Organization | null> {
      const row = await manager.findOneBy(OrganizationEntity, { id });
      return row ? toOrganization(row) : null;
    },

    /** Every organization, oldest first: for an operator (`gatehouse org list`), never for a member. */
    async listAll(): Promise<Organization[]> {
      const rows = await manager.find(OrganizationEntity, { order: { createdAt: "ASC", id: "ASC" } });
      return rows.map(toOrganization);
    },
  };
}

export type OrganizationsRepository = ReturnType<typeof organizationsRepository>;
