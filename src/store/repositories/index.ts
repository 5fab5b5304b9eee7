import type { EntityManager } from "typeorm";
import { apiKeysRepository } from "./api-keys.js";
import { systemClock, type Clock } from "../../domain/clock.js";
import { invitationsRepository } from "./invitations.js";
import { managementTokensRepository } from "./management-tokens.js";
import { membersRepository } from "./members.js";
import { organizationsRepository } from "./organizations.js";
import { projectsRepository } from "./projects.js";

export type { Clock } from "../../domain/clock.js";

/** Every repository bound to one EntityManager: the data source's, or a transaction's. */
export function createRepositories(manager: EntityManager, clock: Clock = systemClock) {
  return {
    organizations: organizationsRepository(manager, clock),
    members: membersRepository(manager, clock),
    managementTokens: managementTokensRepository(manager, clock),
    invitations: invitationsRepository(manager, clock),
    projects: projectsRepository(manager, clock),
    apiKeys: apiKeysRepository(manager, clock),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
