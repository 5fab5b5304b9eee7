import type { EntityManager } from "typeorm";
import type { Clock } from "../../domain/clock.js";
import type { AuthEvent, UsageCounts } from "../../domain/usage.js";
import { AuthEventEntity } from "../entities/auth-event.entity.js";
import { empty, int, row, sql, statements, type Statement } from "../sql/index.js";

export interface UsageQuery {
  /** Absent: every project of the organization, deleted ones included. */
  projectId?: string;
  /** Inclusive. */
  start: Date;
  /** Exclusive. */
  end: Date;
}

const countsRow = row({
  mau: int,
  total_logins: int,
  tokens_issued: int,
  passwordless_logins: int,
  sso_logins: int,
  passkey_logins: int,
});

// One pass over one index range: the FILTER clauses split it into every counter at once, and
// every column read is in the index (migration 1732700000002), so it is an index-only scan.
// `organization_id = …` is there even with a project: an organization never counts rows
// that are not its own, whatever a writer put in project_id.
function usageCounts(organizationId: string, query: UsageQuery): Statement {
  return sql`
  SELECT count(DISTINCT user_id) FILTER (WHERE kind IN ('signup', 'login'))             AS mau,
         count(*) FILTER (WHERE kind = 'login')                                          AS total_logins,
         coalesce(sum(tokens_issued), 0)                                                 AS tokens_issued,
         count(*) FILTER (WHERE kind = 'login' AND method IN ('otp', 'magic_link'))     AS passwordless_logins,
         count(*) FILTER (WHERE kind = 'login' AND method = 'sso')                       AS sso_logins,
         count(*) FILTER (WHERE kind = 'login' AND method = 'passkey')                   AS passkey_logins
    FROM auth_events
   WHERE organization_id = ${organizationId}
     AND occurred_at >= ${query.start} AND occurred_at < ${query.end}${
       query.projectId === undefined
         ? empty
         : sql`
     AND project_id = ${query.projectId}`
     }`;
}

export function authEventsRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
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
      // An aggregate without GROUP BY answers exactly one row.
      // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- an aggregate without GROUP BY answers exactly one row
      const counts = (await run.first(usageCounts(organizationId, query), countsRow))!;
      return {
        mau: counts.mau,
        totalLogins: counts.total_logins,
        tokensIssued: counts.tokens_issued,
        passwordlessLogins: counts.passwordless_logins,
        ssoLogins: counts.sso_logins,
        passkeyLogins: counts.passkey_logins,
      };
    },
  };
}

export type AuthEventsRepository = ReturnType<typeof authEventsRepository>;
