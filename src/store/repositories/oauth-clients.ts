import type { EntityManager } from "typeorm";
import type { Clock } from "../../domain/clock.js";
import type { OAuthClient, OAuthGrantType, OAuthScope, StoredOAuthClient } from "../../domain/oauth-clients.js";
import type { PageRequest } from "../../domain/pagination.js";
import { OAuthClientEntity } from "../entities/oauth-client.entity.js";
import { keysetTail } from "../keyset.js";
import { entityColumns, sql, statements } from "../sql/index.js";

const CLIENT = entityColumns(OAuthClientEntity);

function toStoredOAuthClient(e: OAuthClientEntity): StoredOAuthClient {
  return {
    id: e.id,
    organizationId: e.organizationId,
    projectId: e.projectId,
    name: e.name,
    type: e.type,
    secretHash: e.secretHash,
    secretHint: e.secretHint,
    redirectUris: [...e.redirectUris],
    postLogoutRedirectUris: [...e.postLogoutRedirectUris],
    // The flows let only OAUTH_GRANT_TYPES and OAUTH_SCOPES in.
    grantTypes: [...e.grantTypes] as OAuthGrantType[],
    scopes: [...e.scopes] as OAuthScope[],
    firstParty: e.firstParty,
    logoUri: e.logoUri,
    allowMissingPkce: e.allowMissingPkce,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

/** What the Account interface shows: never the secret's hash. */
function toOAuthClient(e: OAuthClientEntity): OAuthClient {
  const { secretHash: _secretHash, ...client } = toStoredOAuthClient(e);
  return client;
}

/** The fields UpdateOAuthClient may change; absent ones stay. */
export interface OAuthClientChanges {
  name?: string;
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  grantTypes?: OAuthGrantType[];
  scopes?: OAuthScope[];
  firstParty?: boolean;
  logoUri?: string;
  allowMissingPkce?: boolean;
}

// The OpenID Provider's clients. The Account interface reaches them through the organization
// (another organization's client is absent); the protocol engine through the project its
// issuer serves (findForProvider), so a client of another project is unknown there.
export function oauthClientsRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
  const client = CLIENT.on(manager);
  async function get(organizationId: string, clientId: string): Promise<OAuthClient | undefined> {
    const row = await manager.findOneBy(OAuthClientEntity, { organizationId, id: clientId });
    return row ? toOAuthClient(row) : undefined;
  }

  return {
    /** Keeps a client the flow made whole (id, secret hash, timestamps); the project must be the organization's. */
    async create(row: StoredOAuthClient): Promise<OAuthClient> {
      const entity: OAuthClientEntity = { ...row };
      await manager.insert(OAuthClientEntity, entity);
      return toOAuthClient(entity);
    },

    /** One page of a project's clients, newest first (`limit + 1` rows; see toPage). */
    async list(organizationId: string, projectId: string, page: PageRequest): Promise<OAuthClient[]> {
      const rows = await run.rows(
        sql`SELECT ${client.list} FROM oauth_clients
            WHERE organization_id = ${organizationId} AND project_id = ${projectId}${keysetTail(page)}`,
        client.decode,
      );
      return rows.map(toOAuthClient);
    },

    /** One of the organization's clients; undefined when absent or another organization's. */
    get,

    /**
     * The organization of a client, or null: for the operator's CLI, which may name a client
     * without its organization (docs/cli.md), and then acts inside that one.
     */
    async organizationOf(clientId: string): Promise<string | null> {
      const row = await manager.findOne(OAuthClientEntity, {
        select: { organizationId: true },
        where: { id: clientId },
      });
      return row?.organizationId ?? null;
    },

    /** Locks the row for a change in the caller's transaction; undefined when absent or another organization's. */
    async lock(organizationId: string, clientId: string): Promise<OAuthClient | undefined> {
      const row = await run.first(
        sql`SELECT ${client.list} FROM oauth_clients WHERE organization_id = ${organizationId} AND id = ${clientId} FOR UPDATE`,
        client.decode,
      );
      return row ? toOAuthClient(row) : undefined;
    },

    async countInProject(projectId: string): Promise<number> {
      return manager.countBy(OAuthClientEntity, { projectId });
    },

    /** The client after the change; undefined when absent or another organization's. */
    async update(
      organizationId: string,
      clientId: string,
      changes: OAuthClientChanges,
    ): Promise<OAuthClient | undefined> {
      const set: Partial<OAuthClientEntity> = { updatedAt: clock.now() };
      for (const [key, value] of Object.entries(changes) as Array<[keyof OAuthClientChanges, unknown]>)
        if (value !== undefined) Object.assign(set, { [key]: value });
      const result = await manager.update(OAuthClientEntity, { organizationId, id: clientId }, set);
      if ((result.affected ?? 0) === 0) return undefined;
      return get(organizationId, clientId);
    },

    /**
     * A confidential client's new secret (its hash and hint): the old one stops matching with
     * this statement. Undefined when absent, another organization's, or a public client.
     */
    async setSecret(
      organizationId: string,
      clientId: string,
      secretHash: string,
      secretHint: string,
    ): Promise<OAuthClient | undefined> {
      const result = await manager.update(
        OAuthClientEntity,
        { organizationId, id: clientId, type: "confidential" },
        { secretHash, secretHint, updatedAt: clock.now() },
      );
      if ((result.affected ?? 0) === 0) return undefined;
      return get(organizationId, clientId);
    },

    /**
     * False when absent or another organization's. Its consents and everything the engine
     * stored for it (codes, tokens, grants) go with it (foreign keys ON DELETE CASCADE).
     */
    async delete(organizationId: string, clientId: string): Promise<boolean> {
      const result = await manager.delete(OAuthClientEntity, { organizationId, id: clientId });
      return (result.affected ?? 0) > 0;
    },

    /** The engine's client lookup: a client of the issuer's project, with its secret's hash. */
    async findForProvider(projectId: string, clientId: string): Promise<StoredOAuthClient | undefined> {
      const row = await manager.findOneBy(OAuthClientEntity, { projectId, id: clientId });
      return row ? toStoredOAuthClient(row) : undefined;
    },
  };
}

export type OAuthClientsRepository = ReturnType<typeof oauthClientsRepository>;
