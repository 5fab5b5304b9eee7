import type { EntityManager } from "typeorm";
import type { LinkedIdentity } from "../../domain/sso.js";

interface IdentityRow {
  user_id: string;
  connection_id: string;
  issuer: string;
  subject: string;
  email: string;
  linked_at: Date;
}

function toIdentity(r: IdentityRow): LinkedIdentity {
  return { userId: r.user_id, connectionId: r.connection_id, issuer: r.issuer, subject: r.subject, email: r.email, linkedAt: new Date(r.linked_at) };
}

const COLUMNS = "user_id, connection_id, issuer, subject, email, linked_at";

// Identities at SSO providers (issuer + subject), linked to users of one project.
export function ssoIdentitiesRepository(manager: EntityManager) {
  return {
    async find(projectId: string, issuer: string, subject: string): Promise<LinkedIdentity | null> {
      const rows = (await manager.query(`SELECT ${COLUMNS} FROM sso_identities WHERE project_id = $1 AND issuer = $2 AND subject = $3`, [
        projectId,
        issuer,
        subject,
      ])) as IdentityRow[];
      return rows[0] ? toIdentity(rows[0]) : null;
    },

    /** A duplicate (issuer, subject) in the project is UniqueViolation sso_identities_pkey. */
    async link(projectId: string, identity: LinkedIdentity): Promise<void> {
      await manager.query(
        `INSERT INTO sso_identities (project_id, issuer, subject, user_id, connection_id, email, linked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [projectId, identity.issuer, identity.subject, identity.userId, identity.connectionId, identity.email, identity.linkedAt],
      );
    },

    async listByUser(projectId: string, userId: string): Promise<LinkedIdentity[]> {
      const rows = (await manager.query(`SELECT ${COLUMNS} FROM sso_identities WHERE project_id = $1 AND user_id = $2 ORDER BY linked_at, issuer, subject`, [
        projectId,
        userId,
      ])) as IdentityRow[];
      return rows.map(toIdentity);
    },
  };
}

export type SsoIdentitiesRepository = ReturnType<typeof ssoIdentitiesRepository>;
