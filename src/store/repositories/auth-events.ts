import type { EntityManager } from "typeorm";
import type { Clock } from "../../domain/clock.js";
import type { AuthEvent, UsageCounts } from "../../domain/usage.js";
import { AuthEventEntity } from "../entities/auth-event.entity.js";

export interface UsageQuery {
  /** Absent: every project of the organization, deleted ones included. */
  projectId?: string;
  /** Inclusive. */
  start: Date;
  /** Exclusive. */
  end: Date;
}

// One pass over one index range: the FILTER clauses split it into every counter at once, and
// every column read is in the index (migration 1732700000002), so it is an index-only scan.
// `organization_id = $1` is there even with a project: an organization never counts rows
// that are not its own, whatever a writer put in project_id.
const COUNTS = `
  SELECT count(DISTINCT user_id) FILTER (WHERE kind IN ('signup', 'login'))             AS mau,
         count(*) FILTER (WHERE kind = 'login')                                          AS total_logins,
         coalesce(sum(tokens_issued), 0)                                                 AS tokens_issued,
         count(*) FILTER (WHERE kind = 'login' AND method IN ('otp', 'magic_link'))     AS passwordless_logins,
         count(*) FILTER (WHERE kind = 'login' AND method = 'sso')                       AS sso_logins
    FROM auth_events
   WHERE organization_id = $1
     AND occurred_at >= $2 AND occurred_at < $3`;

export const USAGE_SQL = {
  organization: COUNTS,
  project: `${COUNTS}\n     AND project_id = $4`,
};

interface CountsRow {
  mau: string;
  total_logins: string;
  tokens_issued: string;
  passwordless_logins: string;
  sso_logins: string;
}

export function authEventsRepository(manager: EntityManager, clock: Clock) {
  return {
    /**
     * The write side for the Authentication flows: call it inside the flow's transaction, so
     * an event is counted if and only if what it records was committed.
     */
    async record(event: AuthEvent): Promise<void> {
      await manager.insert(AuthEventEntity, {
        organizationId: event.organizationId,
        projectId: event.projectId,
        userId: event.userId,
        kind: event.kind,
        method: event.method,
        tokensIssued: event.tokensIssued ?? 1,
        occurredAt: event.at ?? clock.now(),
      });
    },

    async countUsage(organizationId: string, query: UsageQuery): Promise<UsageCounts> {
      const params: unknown[] = [organizationId, query.start, query.end];
      if (query.projectId !== undefined) params.push(query.projectId);
      const sql = query.projectId === undefined ? USAGE_SQL.organization : USAGE_SQL.project;
      const [row] = (await manager.query(sql, params)) as CountsRow[];
      return {
        mau: Number(row!.mau),
        totalLogins: Number(row!.total_logins),
        tokensIssued: Number(row!.tokens_issued),
        passwordlessLogins: Number(row!.passwordless_logins),
        ssoLogins: Number(row!.sso_logins),
      };
    },
  };
}

export type AuthEventsRepository = ReturnType<typeof authEventsRepository>;
