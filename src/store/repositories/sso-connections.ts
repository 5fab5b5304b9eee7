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
import { keysetPage } from "../keyset.js";
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
  clientSecret: string;
  scopes: string[];
  trustEmails: boolean;
}

// Sealing and opening live here together because both must use the same associated data
// (the connection id): the secret box is passed in, as repositories hold no keys.
export function ssoConnectionsRepository(manager: EntityManager, clock: Clock) {
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
        createdAt: clock.now(),
      };
      await translateUniqueViolation(() => manager.insert(SsoConnectionEntity, row));
      return toSsoConnection(row);
    },

    /** One page of a project's connections, newest first (`limit + 1` rows; see toPage). */
    async list(organizationId: string, projectId: string, page: PageRequest): Promise<SsoConnection[]> {
      const qb = manager
        .createQueryBuilder(SsoConnectionEntity, "c")
        .where("c.organizationId = :organizationId", { organizationId })
        .andWhere("c.projectId = :projectId", { projectId });
      const rows = await keysetPage(qb, "c", page).getMany();
      return rows.map(toSsoConnection);
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
      return { ...toSsoConnection(row), clientSecret: secrets.open(row.clientSecretSealed, row.id).toString("utf8") };
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
