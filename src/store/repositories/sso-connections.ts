import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { SecretBox } from "../../crypto/secret-box.js";
import type { Clock } from "../../domain/clock.js";
import type { PageRequest } from "../../domain/pagination.js";
import type {
  ClaimMapping,
  OAuth2Endpoints,
  SsoConnection,
  SsoConnectionWithSecret,
  SsoProvider,
} from "../../domain/sso.js";
import { SsoConnectionEntity } from "../entities/sso-connection.entity.js";
import { keysetTail } from "../keyset.js";
import { entityColumns, sql, statements } from "../sql/index.js";
import { translateUniqueViolation } from "../errors.js";

export function toSsoConnection(e: SsoConnectionEntity): SsoConnection {
  return {
    id: e.id,
    organizationId: e.organizationId,
    projectId: e.projectId,
    name: e.name,
    provider: e.provider,
    issuer: e.issuer,
    endpoints: { authorizationUrl: e.authorizationUrl, tokenUrl: e.tokenUrl, userinfoUrl: e.userinfoUrl },
    claimMapping: { ...e.claimMapping },
    hostedDomain: e.hostedDomain,
    clientId: e.clientId,
    scopes: [...e.scopes],
    trustEmails: e.trustEmails,
    allowedTenants: [...e.allowedTenants],
    teamId: e.teamId,
    keyId: e.keyId,
    position: e.position,
    createdAt: e.createdAt,
  };
}

export interface CreateSsoConnectionInput {
  projectId: string;
  name: string;
  provider: SsoProvider;
  issuer: string;
  endpoints: OAuth2Endpoints;
  claimMapping: ClaimMapping;
  hostedDomain: string;
  clientId: string;
  /** "" for `apple`, which signs its client secret from `privateKey`. */
  clientSecret: string;
  scopes: string[];
  trustEmails: boolean;
  allowedTenants: string[];
  teamId: string;
  keyId: string;
  /** `apple`'s PEM; "" for every other kind (nothing stored). */
  privateKey: string;
  position: number;
}

/** What UpdateSsoConnection changes: the fields given; a secret or key given is sealed anew. */
export type SsoConnectionChanges = Partial<Omit<CreateSsoConnectionInput, "projectId" | "provider">>;

/** The associated data of a sealed Apple key: its row, and its column, so it opens nowhere else. */
const privateKeyBinding = (id: string) => `${id}:private_key`;

// Sealing and opening live here together because both must use the same associated data
// (the connection id): the secret box is passed in, as repositories hold no keys.
const CONNECTION = entityColumns(SsoConnectionEntity);

export function ssoConnectionsRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
  const connection = CONNECTION.on(manager);
  return {
    /** A project of another organization fails the composite foreign key (23503), never links. */
    async create(
      organizationId: string,
      input: CreateSsoConnectionInput,
      secrets: Pick<SecretBox, "seal">,
    ): Promise<SsoConnection> {
      const id = newId("sso");
      const row: SsoConnectionEntity = {
        id,
        organizationId,
        projectId: input.projectId,
        name: input.name,
        provider: input.provider,
        issuer: input.issuer,
        authorizationUrl: input.endpoints.authorizationUrl,
        tokenUrl: input.endpoints.tokenUrl,
        userinfoUrl: input.endpoints.userinfoUrl,
        claimMapping: { ...input.claimMapping },
        hostedDomain: input.hostedDomain,
        clientId: input.clientId,
        clientSecretSealed: secrets.seal(input.clientSecret, id),
        scopes: [...input.scopes],
        trustEmails: input.trustEmails,
        allowedTenants: [...input.allowedTenants],
        teamId: input.teamId,
        keyId: input.keyId,
        privateKeySealed: input.privateKey === "" ? null : secrets.seal(input.privateKey, privateKeyBinding(id)),
        position: input.position,
        createdAt: clock.now(),
      };
      await translateUniqueViolation(() => manager.insert(SsoConnectionEntity, row));
      return toSsoConnection(row);
    },

    /** One page of a project's connections, newest first (`limit + 1` rows; see toPage). */
    async list(organizationId: string, projectId: string, page: PageRequest): Promise<SsoConnection[]> {
      const rows = await run.rows(
        sql`SELECT ${connection.list} FROM sso_connections
            WHERE organization_id = ${organizationId} AND project_id = ${projectId}${keysetTail(page)}`,
        connection.decode,
      );
      return rows.map(toSsoConnection);
    },

    /**
     * A project's connections as the hosted sign-in page shows their buttons: by position, then
     * oldest first; at most `limit`.
     */
    async listInButtonOrder(organizationId: string, projectId: string, limit: number): Promise<SsoConnection[]> {
      const rows = await manager.find(SsoConnectionEntity, {
        where: { organizationId, projectId },
        order: { position: "ASC", createdAt: "ASC", id: "ASC" },
        take: limit,
      });
      return rows.map(toSsoConnection);
    },

    /**
     * One of the organization's connections, locked until the transaction ends so that two
     * updates cannot each validate against a state the other is replacing; null when absent.
     */
    async getForUpdate(organizationId: string, id: string): Promise<SsoConnection | null> {
      const row = await run.first(
        sql`SELECT ${connection.list} FROM sso_connections WHERE organization_id = ${organizationId} AND id = ${id} FOR UPDATE`,
        connection.decode,
      );
      return row ? toSsoConnection(row) : null;
    },

    /** Applies the changes to one of the organization's connections; null when absent. */
    async update(
      organizationId: string,
      id: string,
      changes: SsoConnectionChanges,
      secrets: Pick<SecretBox, "seal">,
    ): Promise<SsoConnection | null> {
      const row = await manager.findOneBy(SsoConnectionEntity, { organizationId, id });
      if (!row) return null;
      const { endpoints, clientSecret, privateKey, ...plain } = changes;
      // An absent field is no change, never a NULL.
      const patch: Partial<SsoConnectionEntity> = Object.fromEntries(
        Object.entries(plain).filter(([, value]) => value !== undefined),
      );
      if (endpoints) Object.assign(patch, endpoints);
      if (clientSecret !== undefined) patch.clientSecretSealed = secrets.seal(clientSecret, id);
      if (privateKey !== undefined)
        patch.privateKeySealed = privateKey === "" ? null : secrets.seal(privateKey, privateKeyBinding(id));
      const updated = { ...row, ...patch };
      await manager.update(SsoConnectionEntity, { organizationId, id }, patch);
      return toSsoConnection(updated);
    },

    /** A connection of the project, without its secret (SsoAuthorize needs none); null when absent. */
    async get(projectId: string, id: string): Promise<SsoConnection | null> {
      const row = await manager.findOneBy(SsoConnectionEntity, { projectId, id });
      return row ? toSsoConnection(row) : null;
    },

    /**
     * For the SSO sign-in flow, which knows the project from its API key or login id (the
     * tenant on the Authentication side): null when absent or of another project. Throws when
     * the secret does not open (another key, or a value moved from another row).
     */
    async getWithSecret(
      projectId: string,
      id: string,
      secrets: Pick<SecretBox, "open">,
    ): Promise<SsoConnectionWithSecret | null> {
      const row = await manager.findOneBy(SsoConnectionEntity, { projectId, id });
      if (!row) return null;
      return {
        ...toSsoConnection(row),
        clientSecret: secrets.open(row.clientSecretSealed, row.id).toString("utf8"),
        privateKey:
          row.privateKeySealed === null
            ? ""
            : secrets.open(row.privateKeySealed, privateKeyBinding(row.id)).toString("utf8"),
      };
    },

    /** The project of one of the organization's connections, for the audit log. */
    async projectOf(organizationId: string, id: string): Promise<string | undefined> {
      return (await manager.findOneBy(SsoConnectionEntity, { organizationId, id }))?.projectId;
    },

    /** False when absent or of another organization. */
    async delete(organizationId: string, id: string): Promise<boolean> {
      const result = await manager.delete(SsoConnectionEntity, { organizationId, id });
      return (result.affected ?? 0) > 0;
    },
  };
}

export type SsoConnectionsRepository = ReturnType<typeof ssoConnectionsRepository>;
