import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import { SSO_PROVIDERS, type LinkedIdentity, type UserIdentity } from "../../domain/sso.js";
import { SsoIdentityEntity } from "../entities/sso-identity.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { oneOf, row, sql, statements, text, timestamp } from "../sql/index.js";

const COLUMNS = sql`i.id, i.user_id, i.connection_id, i.issuer, i.subject, i.email, i.linked_at`;

const IDENTITY_SHAPE = {
  id: text,
  user_id: text,
  connection_id: text,
  issuer: text,
  subject: text,
  email: text,
  linked_at: timestamp,
};

const identityRow = row(IDENTITY_SHAPE);

const userIdentityRow = row({
  ...IDENTITY_SHAPE,
  connection_name: text,
  connection_provider: oneOf(...SSO_PROVIDERS),
});

function fromRow(r: ReturnType<typeof identityRow>): LinkedIdentity {
  return {
    id: r.id,
    userId: r.user_id,
    connectionId: r.connection_id,
    issuer: r.issuer,
    subject: r.subject,
    email: r.email,
    linkedAt: r.linked_at,
  };
}

function toIdentity(e: SsoIdentityEntity): LinkedIdentity {
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
        sql`SELECT ${COLUMNS}, c.name AS connection_name, c.provider AS connection_provider
              FROM sso_identities i
              JOIN sso_connections c ON c.id = i.connection_id AND c.project_id = i.project_id
             WHERE i.project_id = ${projectId} AND i.user_id = ${userId}
             ORDER BY i.linked_at, i.id`,
        userIdentityRow,
      );
      return rows.map((r) => ({
        ...fromRow(r),
        connectionName: r.connection_name,
        connectionProvider: r.connection_provider,
      }));
    },

    /**
     * The user's identities, locked until the transaction ends: two unlinkings of one user's
     * last two identities run one after the other, so the second sees it holds the last one.
     */
    async lockOfUser(projectId: string, userId: string): Promise<LinkedIdentity[]> {
      const rows = await run.rows(
        sql`SELECT ${COLUMNS} FROM sso_identities i
             WHERE i.project_id = ${projectId} AND i.user_id = ${userId}
             ORDER BY i.linked_at, i.id FOR UPDATE`,
        identityRow,
      );
      return rows.map(fromRow);
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
