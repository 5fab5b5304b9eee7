import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { AuditEvent, AuditEventInput, AuditEventType } from "../../domain/audit.js";
import type { Clock } from "../../domain/clock.js";
import type { PageRequest } from "../../domain/pagination.js";
import { AuditEventEntity } from "../entities/audit-event.entity.js";
import { keysetPage } from "../keyset.js";

export interface AuditFilter {
  projectId?: string;
  userId?: string;
  types?: AuditEventType[];
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

/** The row an event is written as; `id` and `createdAt` are chosen by the writer. */
export function auditRow(event: AuditEventInput, at: Date): AuditEventEntity {
  return {
    id: newId("aev", at.getTime()),
    organizationId: event.organizationId,
    projectId: event.projectId,
    type: event.type,
    userId: event.userId ?? null,
    actorType: event.origin.actor.type,
    actorId: event.origin.actor.id,
    targetId: event.targetId ?? null,
    ipAddress: event.origin.ip || null,
    // As long as a session keeps it: a client cannot grow the log with a huge header.
    userAgent: event.origin.userAgent.slice(0, 512) || null,
    reason: event.reason ?? null,
    emailHash: event.emailHash ?? null,
    details: event.details ?? {},
    createdAt: at,
  };
}

/** The columns of audit_events in the order auditInsertCte writes them. */
export const AUDIT_COLUMNS = "id, organization_id, project_id, type, user_id, actor_type, actor_id, target_id, ip_address, user_agent, reason, email_hash, details, created_at";

/**
 * The INSERT of one event as a CTE named `name`, its parameters appended to `params`: the
 * sign-in statement (sign-ins.ts) writes its event in the same statement as its session.
 */
export function auditInsertCte(name: string, row: AuditEventEntity, params: unknown[]): string {
  const p = (value: unknown) => `$${params.push(value)}`;
  const values = [row.id, row.organizationId, row.projectId, row.type, row.userId, row.actorType, row.actorId, row.targetId, row.ipAddress, row.userAgent, row.reason, row.emailHash, JSON.stringify(row.details), row.createdAt];
  return `${name} AS (INSERT INTO audit_events (${AUDIT_COLUMNS}) VALUES (${values.map(p).join(", ")}))`;
}

function toAuditEvent(e: AuditEventEntity): AuditEvent {
  return { ...e, type: e.type as AuditEventType, details: e.details ?? {} };
}

export function auditEventsRepository(manager: EntityManager, clock: Clock) {
  return {
    /**
     * Call it with the flow's transaction's repositories, so an event is stored if and only if
     * what it records was committed.
     */
    async record(event: AuditEventInput): Promise<void> {
      const params: unknown[] = [];
      await manager.query(`WITH ${auditInsertCte("event", auditRow(event, clock.now()), params)} SELECT 1`, params);
    },

    /** One page, newest first (`limit + 1` rows; see toPage), of one organization only. */
    async list(organizationId: string, filter: AuditFilter, page: PageRequest): Promise<AuditEvent[]> {
      const qb = manager.createQueryBuilder(AuditEventEntity, "e").where("e.organizationId = :organizationId", { organizationId });
      if (filter.projectId !== undefined) qb.andWhere("e.projectId = :projectId", { projectId: filter.projectId });
      if (filter.userId !== undefined) qb.andWhere("e.userId = :userId", { userId: filter.userId });
      if (filter.types !== undefined && filter.types.length > 0) qb.andWhere("e.type IN (:...types)", { types: filter.types });
      if (filter.from !== undefined) qb.andWhere("e.createdAt >= :from", { from: filter.from });
      if (filter.to !== undefined) qb.andWhere("e.createdAt < :to", { to: filter.to });
      const rows = await keysetPage(qb, "e", page).getMany();
      return rows.map(toAuditEvent);
    },

    /**
     * DeleteUser: the events stay (they are the organization's record of what happened), but
     * nothing in them points at the person any more: the user id, wherever it appears, becomes
     * `pseudonym`, and the address, user agent and email hash are cleared.
     */
    async forgetUser(organizationId: string, projectId: string, userId: string, pseudonym: string): Promise<void> {
      await manager.query(
        `UPDATE audit_events
            SET user_id = CASE WHEN user_id = $3 THEN $4 ELSE user_id END,
                actor_id = CASE WHEN actor_id = $3 THEN $4 ELSE actor_id END,
                target_id = CASE WHEN target_id = $3 THEN $4 ELSE target_id END,
                ip_address = NULL, user_agent = NULL, email_hash = NULL
          WHERE organization_id = $1 AND project_id = $2 AND (user_id = $3 OR actor_id = $3 OR target_id = $3)`,
        [organizationId, projectId, userId, pseudonym],
      );
    },

    /**
     * Deletes at most `batch` events older than `before`, oldest first, and says how many: the
     * sweep repeats it until fewer come back, so no statement holds locks on a huge range.
     */
    async deleteOlderThan(before: Date, batch: number): Promise<number> {
      const rows = (await manager.query(
        `WITH gone AS (
           DELETE FROM audit_events WHERE id IN (
             SELECT id FROM audit_events WHERE created_at < $1 ORDER BY created_at, id LIMIT $2)
           RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [before, batch],
      )) as { n: number }[];
      return Number(rows[0]?.n ?? 0);
    },
  };
}

export type AuditEventsRepository = ReturnType<typeof auditEventsRepository>;
