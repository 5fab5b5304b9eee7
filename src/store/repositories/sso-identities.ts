import type { EntityManager } from "typeorm";
import type { LinkedIdentity } from "../../domain/sso.js";
import { SsoIdentityEntity } from "../entities/sso-identity.entity.js";

function toIdentity(e: SsoIdentityEntity): LinkedIdentity {
  return {
    userId: e.userId,
    connectionId: e.connectionId,
    issuer: e.issuer,
    subject: e.subject,
    email: e.email,
    linkedAt: e.linkedAt,
  };
}

// Identities at SSO providers (issuer + subject), linked to users of one project.
export function ssoIdentitiesRepository(manager: EntityManager) {
  return {
    async find(projectId: string, issuer: string, subject: string): Promise<LinkedIdentity | null> {
      const identity = await manager.findOne(SsoIdentityEntity, { where: { projectId, issuer, subject } });
      return identity ? toIdentity(identity) : null;
    },

    /** A duplicate (issuer, subject) in the project is UniqueViolation sso_identities_pkey. */
    async link(projectId: string, identity: LinkedIdentity): Promise<void> {
      await manager.insert(SsoIdentityEntity, {
        projectId,
        issuer: identity.issuer,
        subject: identity.subject,
        userId: identity.userId,
        connectionId: identity.connectionId,
        email: identity.email,
        linkedAt: identity.linkedAt,
      });
    },

    async listByUser(projectId: string, userId: string): Promise<LinkedIdentity[]> {
      const identities = await manager.find(SsoIdentityEntity, {
        where: { projectId, userId },
        order: { linkedAt: "ASC", issuer: "ASC", subject: "ASC" },
      });
      return identities.map(toIdentity);
    },
  };
}

export type SsoIdentitiesRepository = ReturnType<typeof ssoIdentitiesRepository>;
