import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import type { AuditEvent, AuditEventInput, AuditEventType } from "../../domain/audit.js";
import type { Clock } from "../../domain/clock.js";
import type { PageRequest } from "../../domain/pagination.js";
import { AuditEventEntity } from "../entities/audit-event.entity.js";
import { keysetTail } from "../keyset.js";
import {
  empty,
  entityColumns,
  int,
  joinSql,
  jsonObject,
  raw,
  row,
  sql,
  statements,
  type Statement,
} from "../sql/index.js";

const EVENT = entityColumns(AuditEventEntity, { narrow: { details: jsonObject } });

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

/** The columns of audit_events in the order auditInsert writes them. */
export const AUDIT_COLUMNS =
  "id, organization_id, project_id, type, user_id, actor_type, actor_id, target_id, ip_address, user_agent, reason, email_hash, details, created_at";

/**
 * The INSERT of one event, as a fragment: the sign-in statement (sign-ins.ts) writes its event
 * in the same statement as its session, as sql`${raw(name)} AS (${auditInsert(row)})`.
 */
export function auditInsert(row: AuditEventEntity): Statement {
  const values = [
    row.id,
    row.organizationId,
    row.projectId,
    row.type,
    row.userId,
    row.actorType,
    row.actorId,
    row.targetId,
    row.ipAddress,
    row.userAgent,
    row.reason,
    row.emailHash,
    JSON.stringify(row.details),
    row.createdAt,
  ];
  return sql`INSERT INTO audit_events (${raw(AUDIT_COLUMNS)}) VALUES (${joinSql(
    values.map((v) => sql`${v}`),
    ", ",
  )})`;
}

function toAuditEvent(e: AuditEventEntity): AuditEvent {
  return { ...e, type: e.type as AuditEventType, details: e.details ?? {} };
}

const countRow = row({ n: int });

export function auditEventsRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
  const event = EVENT.on(manager);
  return {
    /**
     * Call it with the flow's transaction's repositories, so an event is stored if and only if
     * what it records was committed.
     */
    async record(event: AuditEventInput): Promise<void> {
      await run.execute(auditInsert(auditRow(event, clock.now())));
    },

    /** One page, newest first (`limit + 1` rows; see toPage), of one organization only. */
    async list(organizationId: string, filter: AuditFilter, page: PageRequest): Promise<AuditEvent[]> {
      const rows = await run.rows(
        sql`SELECT ${event.list} FROM audit_events WHERE organization_id = ${organizationId}${
          filter.projectId !== undefined ? sql` AND project_id = ${filter.projectId}` : empty
        }${filter.userId !== undefined ? sql` AND user_id = ${filter.userId}` : empty}${
          filter.types !== undefined && filter.types.length > 0
            ? sql` AND type = ANY(${[...filter.types]}::text[])`
            : empty
        }${filter.from !== undefined ? sql` AND created_at >= ${filter.from}` : empty}${
          filter.to !== undefined ? sql` AND created_at < ${filter.to}` : empty
        }${keysetTail(page)}`,
        event.decode,
      );
      return rows.map(toAuditEvent);
    },

    /**
     * DeleteUser: the events stay (they are the organization's record of what happened), but
     * nothing in them points at the person any more: the user id, wherever it appears, becomes
     * `pseudonym`, and the address, user agent and email hash are cleared.
     */
    async forgetUser(organizationId: string, projectId: string, userId: string, pseudonym: string): Promise<void> {
      await run.execute(
        sql`UPDATE audit_events
               SET user_id = CASE WHEN user_id = ${userId} THEN ${pseudonym} ELSE user_id END,
                   actor_id = CASE WHEN actor_id = ${userId} THEN ${pseudonym} ELSE actor_id END,
                   target_id = CASE WHEN target_id = ${userId} THEN ${pseudonym} ELSE target_id END,
                   ip_address = NULL, user_agent = NULL, email_hash = NULL
             WHERE organization_id = ${organizationId} AND project_id = ${projectId} AND (user_id = ${userId} OR actor_id = ${userId} OR target_id = ${userId})`,
      );
    },

    /**
     * Deletes at most `batch` events older than `before`, oldest first, and says how many: the
     * sweep repeats it until fewer come back, so no statement holds locks on a huge range.
     */
    async deleteOlderThan(before: Date, batch: number): Promise<number> {
      const gone = await run.first(
        sql`WITH gone AS (
              DELETE FROM audit_events WHERE id IN (
                SELECT id FROM audit_events WHERE created_at < ${before} ORDER BY created_at, id LIMIT ${batch})
              RETURNING 1)
            SELECT count(*)::int AS n FROM gone`,
        countRow,
      );
      return gone?.n ?? 0;
    },
  };
}

export type AuditEventsRepository = ReturnType<typeof auditEventsRepository>;
