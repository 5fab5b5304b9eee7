import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import { SSO_PROVIDERS, type LinkedIdentity, type UserIdentity } from "../../domain/sso.js";
import { SsoIdentityEntity } from "../entities/sso-identity.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { entityColumns, oneOf, row, type RowOf, sql, statements, text } from "../sql/index.js";

// The project is the caller's: every statement names it.
const IDENTITY = entityColumns(SsoIdentityEntity, { omit: ["projectId"] });
// Not the connection's shape: the two of its columns a user's identity shows.
const connectionOf = row({ connectionName: text, connectionProvider: oneOf(...SSO_PROVIDERS) });

function toIdentity(e: RowOf<typeof IDENTITY>): LinkedIdentity {
  return {
    id: e.id,
    userId: e.userId,
    connectionId: e.connectionId,
    issuer: e.issuer,
    subject: e.subject,
    email: e.email,
    linkedAt: e.linkedAt,
  };
}

/** What linking needs: the id is given here. */
export type NewLinkedIdentity = Omit<LinkedIdentity, "id">;

// Identities at SSO providers (issuer + subject), linked to users of one project.
export function ssoIdentitiesRepository(manager: EntityManager) {
  const run = statements(manager);
  const identity = IDENTITY.on(manager);
  const linked = (r: unknown) => toIdentity(identity.decode(r));
  return {
    async find(projectId: string, issuer: string, subject: string): Promise<LinkedIdentity | null> {
      const identity = await manager.findOne(SsoIdentityEntity, { where: { projectId, issuer, subject } });
      return identity ? toIdentity(identity) : null;
    },

    /** A duplicate (issuer, subject) in the project is UniqueViolation sso_identities_pkey. */
    async link(projectId: string, identity: NewLinkedIdentity): Promise<LinkedIdentity> {
      const linked: LinkedIdentity = { ...identity, id: newId("idn", identity.linkedAt.getTime()) };
      await translateUniqueViolation(() =>
        manager.insert(SsoIdentityEntity, {
          id: linked.id,
          projectId,
          issuer: linked.issuer,
          subject: linked.subject,
          userId: linked.userId,
          connectionId: linked.connectionId,
          email: linked.email,
          linkedAt: linked.linkedAt,
        }),
      );
      return linked;
    },

    /** Oldest first, each with the name and kind of the connection it signs in through. */
    async listByUser(projectId: string, userId: string): Promise<UserIdentity[]> {
      const rows = await run.rows(
        sql`SELECT ${identity.qualified("i")}, c.name AS "connectionName", c.provider AS "connectionProvider"
              FROM sso_identities i
              JOIN sso_connections c ON c.id = i.connection_id AND c.project_id = i.project_id
             WHERE i.project_id = ${projectId} AND i.user_id = ${userId}
             ORDER BY i.linked_at, i.id`,
        (r): UserIdentity => ({ ...linked(r), ...connectionOf(r) }),
      );
      return rows;
    },

    /**
     * The user's identities, locked until the transaction ends: two unlinkings of one user's
     * last two identities run one after the other, so the second sees it holds the last one.
     */
    async lockOfUser(projectId: string, userId: string): Promise<LinkedIdentity[]> {
      const rows = await run.rows(
        sql`SELECT ${identity.qualified("i")} FROM sso_identities i
             WHERE i.project_id = ${projectId} AND i.user_id = ${userId}
             ORDER BY i.linked_at, i.id FOR UPDATE`,
        linked,
      );
      return rows;
    },

    /** Whether the user's identity with this id was there to remove. */
    async unlink(projectId: string, userId: string, id: string): Promise<boolean> {
      const removed = await run.affected(
        sql`DELETE FROM sso_identities WHERE project_id = ${projectId} AND user_id = ${userId} AND id = ${id}`,
      );
      return removed > 0;
    },
  };
}

export type SsoIdentitiesRepository = ReturnType<typeof ssoIdentitiesRepository>;
