import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { SecretBox } from "../../crypto/secret-box.js";
import type { Clock } from "../../domain/clock.js";
import type { PageRequest } from "../../domain/pagination.js";
import type { WebhookEndpoint } from "../../domain/webhooks.js";
import { WebhookEndpointEntity } from "../entities/webhook-endpoint.entity.js";
import { keysetTail } from "../keyset.js";
import { entityColumns, nullable, oneOf, sql, statements } from "../sql/index.js";

const ENDPOINT = entityColumns(WebhookEndpointEntity, {
  narrow: { disabledReason: nullable(oneOf("admin", "failing")) },
});

export function toWebhookEndpoint(e: WebhookEndpointEntity): WebhookEndpoint {
  return {
    id: e.id,
    organizationId: e.organizationId,
    projectId: e.projectId,
    url: e.url,
    eventTypes: [...e.eventTypes],
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    previousSecretExpiresAt: e.previousSecretExpiresAt,
  };
}

/** What the trigger needs to pick an endpoint's events, as the flow computed it. */
export interface Subscription {
  eventTypes: string[];
  auditTypes: string[];
  allTypes: boolean;
}

export interface EndpointChanges {
  url?: string;
  subscription?: Subscription;
  enabled?: boolean;
}

/** The secrets an endpoint signs with now: the current one, and the previous one while it lasts. */
export interface SigningSecrets {
  current: string;
  previous: string | null;
}

// Sealing and opening live here together because both use the row id as associated data.
export function webhookEndpointsRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
  const endpoint = ENDPOINT.on(manager);
  return {
    async create(
      organizationId: string,
      projectId: string,
      input: { url: string; subscription: Subscription; enabled: boolean; secret: string },
      secrets: Pick<SecretBox, "seal">,
    ): Promise<WebhookEndpoint> {
      const id = newId("wh");
      const now = clock.now();
      const row: WebhookEndpointEntity = {
        id,
        organizationId,
        projectId,
        url: input.url,
        eventTypes: input.subscription.eventTypes,
        auditTypes: input.subscription.auditTypes,
        allTypes: input.subscription.allTypes,
        enabled: input.enabled,
        disabledReason: input.enabled ? null : "admin",
        secretSealed: secrets.seal(input.secret, id),
        previousSecretSealed: null,
        previousSecretExpiresAt: null,
        failingSince: null,
        createdAt: now,
        updatedAt: now,
      };
      await manager.insert(WebhookEndpointEntity, row);
      return toWebhookEndpoint(row);
    },

    async count(projectId: string): Promise<number> {
      return manager.countBy(WebhookEndpointEntity, { projectId });
    },

    /** One page of a project's endpoints, newest first (`limit + 1` rows; see toPage). */
    async list(organizationId: string, projectId: string, page: PageRequest): Promise<WebhookEndpoint[]> {
      const rows = await run.rows(
        sql`SELECT ${endpoint.list} FROM webhook_endpoints
            WHERE organization_id = ${organizationId} AND project_id = ${projectId}${keysetTail(page)}`,
        endpoint.decode,
      );
      return rows.map(toWebhookEndpoint);
    },

    /** One of the organization's endpoints; null when absent or another organization's. */
    async get(organizationId: string, id: string): Promise<WebhookEndpoint | null> {
      const row = await manager.findOneBy(WebhookEndpointEntity, { organizationId, id });
      return row ? toWebhookEndpoint(row) : null;
    },

    /**
     * The organization of an endpoint, or null: for the operator's CLI, which may name an
     * endpoint without its organization (docs/cli.md), and then acts inside that one.
     */
    async organizationOf(id: string): Promise<string | null> {
      const row = await manager.findOne(WebhookEndpointEntity, { select: { organizationId: true }, where: { id } });
      return row?.organizationId ?? null;
    },

    /** Locks the row for a change in the caller's transaction; null when absent or another organization's. */
    async lock(organizationId: string, id: string): Promise<WebhookEndpoint | null> {
      const row = await run.first(
        sql`SELECT ${endpoint.list} FROM webhook_endpoints WHERE organization_id = ${organizationId} AND id = ${id} FOR UPDATE`,
        endpoint.decode,
      );
      return row ? toWebhookEndpoint(row) : null;
    },

    /** Enabling clears the failure streak; disabling by an admin says so. */
    async update(organizationId: string, id: string, changes: EndpointChanges): Promise<void> {
      const set: Partial<WebhookEndpointEntity> = { updatedAt: clock.now() };
      if (changes.url !== undefined) set.url = changes.url;
      if (changes.subscription !== undefined) {
        set.eventTypes = changes.subscription.eventTypes;
        set.auditTypes = changes.subscription.auditTypes;
        set.allTypes = changes.subscription.allTypes;
      }
      if (changes.enabled === true) Object.assign(set, { enabled: true, disabledReason: null, failingSince: null });
      if (changes.enabled === false) Object.assign(set, { enabled: false, disabledReason: "admin" });
      await manager.update(WebhookEndpointEntity, { organizationId, id }, set);
    },

    /** The current secret becomes the previous one until `previousUntil`. */
    async rotateSecret(
      organizationId: string,
      id: string,
      secret: string,
      previousUntil: Date,
      secrets: Pick<SecretBox, "seal">,
    ): Promise<void> {
      const row = await manager.findOneByOrFail(WebhookEndpointEntity, { organizationId, id });
      await manager.update(
        WebhookEndpointEntity,
        { organizationId, id },
        {
          secretSealed: secrets.seal(secret, id),
          previousSecretSealed: row.secretSealed,
          previousSecretExpiresAt: previousUntil,
          updatedAt: clock.now(),
        },
      );
    },

    /** False when absent or another organization's; its deliveries go with it. */
    async delete(organizationId: string, id: string): Promise<boolean> {
      const result = await manager.delete(WebhookEndpointEntity, { organizationId, id });
      return (result.affected ?? 0) > 0;
    },

    /** For the delivery worker: the endpoint's URL and the secrets that sign now. */
    async signingState(
      id: string,
      at: Date,
      secrets: Pick<SecretBox, "open">,
    ): Promise<{ endpoint: WebhookEndpoint; secrets: SigningSecrets } | null> {
      const row = await manager.findOneBy(WebhookEndpointEntity, { id });
      if (!row) return null;
      const previousLive =
        row.previousSecretSealed !== null && (row.previousSecretExpiresAt?.getTime() ?? 0) > at.getTime();
      return {
        endpoint: toWebhookEndpoint(row),
        secrets: {
          current: secrets.open(row.secretSealed, id).toString("utf8"),
          // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- previousLive holds only when previousSecretSealed is set
          previous: previousLive ? secrets.open(row.previousSecretSealed!, id).toString("utf8") : null,
        },
      };
    },

    /**
     * `*` endpoints follow the catalog of the version running: at start-up, the ones made
     * under another catalog get its audit types. Answers how many changed.
     */
    async syncAllTypes(auditTypes: string[]): Promise<number> {
      return run.affected(
        sql`UPDATE webhook_endpoints SET audit_types = ${auditTypes}
            WHERE all_types AND NOT (audit_types @> ${auditTypes} AND audit_types <@ ${auditTypes})`,
      );
    },

    /** A 2xx answer: the streak ends. */
    async recordSuccess(id: string): Promise<void> {
      await run.execute(
        sql`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ${id} AND failing_since IS NOT NULL`,
      );
    },

    /**
     * A failed attempt: starts the streak if none is running, and disables the endpoint when
     * the streak began `disableAfterMs` ago or more. True when this call disabled it.
     */
    async recordFailure(id: string, at: Date, disableAfterMs: number): Promise<boolean> {
      await run.execute(
        sql`UPDATE webhook_endpoints SET failing_since = ${at} WHERE id = ${id} AND failing_since IS NULL`,
      );
      const cutoff = new Date(at.getTime() - disableAfterMs);
      const disabled = await run.affected(
        sql`UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'failing', updated_at = ${at}
            WHERE id = ${id} AND enabled AND failing_since <= ${cutoff}`,
      );
      return disabled > 0;
    },
  };
}

export type WebhookEndpointsRepository = ReturnType<typeof webhookEndpointsRepository>;
