import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import { normalizeEmail } from "../../domain/account.js";
import type { Session, User } from "../../domain/auth.js";
import type { AuthEvent } from "../../domain/usage.js";
import type { AuditEventEntity } from "../entities/audit-event.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { raw, RowShapeError, sql, statements, type Statement } from "../sql/index.js";
import { AUDIT_COLUMNS, auditInsert } from "./audit-events.js";
import { toUser, USER } from "./user-rows.js";

export interface SignInWrite {
  /** The new session, id included (the access token names it before it is written). */
  session: Session;
  refreshTokenHash: string;
  event: AuthEvent & { at: Date };
  /** The audit event (user.signup or user.login.succeeded), written in the same statement. */
  audit: AuditEventEntity;
  /** The user's other live sessions past this many are ended, oldest first (record; a signup's new user has none). */
  cap: SessionCap;
}

/** max_sessions_per_user as a sign-in applies it. */
export interface SessionCap {
  /** The project's max_sessions_per_user: the most live sessions the user keeps, this one included. */
  max: number;
  /**
   * The `session.revoked` row written when the cap ends sessions (details `reason:
   * "session_cap"`); the statement completes it with `count`, `session_ids` and, when it ends
   * one session, `target_id`.
   */
  audit: AuditEventEntity;
}

/** A signup's user row; its id is chosen by the caller, since the access token names it first. */
export interface NewUserWrite {
  id: string;
  organizationId: string;
  /** As stored and as the access token names it: already trimmed (startSessionForNewUser); "" for none. */
  email: string;
  /** E.164, for a user signed up by SMS; null otherwise. */
  phone: string | null;
  /** Proven by the sign-up itself: a one-time code or link sent there (a password proves neither). */
  emailVerified: boolean;
  phoneVerified: boolean;
  passwordHash: string | null;
  metadata: Record<string, unknown>;
  /** Canonical BCP 47, as Signup gave it; absent: none. */
  locale?: string;
}

// Everything a sign-in writes (its session, its first refresh token, the user's last_login_at,
// the usage event and the audit event) in one statement, and for a signup the user row too: one round trip
// instead of six, and atomic on its own, so a sign-in needs no transaction unless it writes
// something else as well.
export function signInsRepository(manager: EntityManager) {
  const run = statements(manager);
  const user = USER.on(manager);
  return {
    /**
     * A sign-in of an existing user, which also ends the user's live sessions past the cap,
     * oldest first (by created_at, then id), so that with this one the user has at most
     * `cap.max`; the change feed hears each revocation, so their access tokens stop verifying
     * at once.
     *
     * The statement sees the sessions committed when it began. Every sign-in updates its user's
     * row (last_login_at), and here the update applies only to the version of the row the
     * statement began with (`xmin`). When a parallel sign-in of the user changed the row in
     * between, its session may not have been seen: the update does not apply, and a second
     * step locks the row first and then trims again, seeing every session committed before
     * the lock (and this one). The row lock orders the sign-ins of a user, and the last of them
     * to update it has seen all the others, so parallel sign-ins leave at most the cap. A
     * sign-in with nobody racing it is one statement, as before.
     */
    async record(projectId: string, write: SignInWrite): Promise<void> {
      const { session: s, cap } = write;
      // The statement does not see its own new session: it keeps max - 1 of the others.
      const updated = await run.affected(
        sql`WITH ${signInWrites(projectId, write)}, ${capWrites(projectId, s, cap, cap.max - 1)}, seen AS (
           SELECT xmin AS version FROM users WHERE project_id = ${projectId} AND id = ${s.userId}
         )
         UPDATE users SET last_login_at = GREATEST(users.last_login_at, ${s.createdAt}::timestamptz) FROM seen
         WHERE users.project_id = ${projectId} AND users.id = ${s.userId} AND users.xmin = seen.version`,
      );
      if (updated > 0) return;
      // Raced: under the row lock, the next statement sees every sign-in that changed the row
      // before, and this session (committed, or earlier in this transaction): it keeps max.
      await manager.transaction(async (tx) => {
        const locked = statements(tx);
        await locked.execute(
          sql`SELECT 1 FROM users WHERE project_id = ${projectId} AND id = ${s.userId} FOR NO KEY UPDATE`,
        );
        const audit = { ...cap.audit, id: newId("aev", s.createdAt.getTime()) };
        await locked.execute(
          sql`WITH ${capWrites(projectId, s, { ...cap, audit }, cap.max)}
           UPDATE users SET last_login_at = GREATEST(users.last_login_at, ${s.createdAt}::timestamptz)
           WHERE project_id = ${projectId} AND id = ${s.userId}`,
        );
      });
    },

    /**
     * A signup: the user row (last_login_at already set) with the sign-in's writes. A duplicate
     * email is UniqueViolation users_project_email_key, and then nothing at all was written.
     */
    async recordSignup(projectId: string, newUser: NewUserWrite, write: SignInWrite): Promise<User> {
      const created = await translateUniqueViolation(() =>
        run.first(
          sql`WITH ${newUserRow(projectId, newUser, write.session.createdAt, true, user.list)}, ${signInWrites(projectId, write)} SELECT * FROM new_user`,
          user.decode,
        ),
      );
      return toUser(inserted(created), write.session.createdAt);
    },

    /**
     * A signup held at an MFA enrollment challenge (project mfa_required): the user row and its
     * usage event, with no session and no token yet.
     */
    async recordSignupWithoutSession(
      projectId: string,
      newUser: NewUserWrite,
      event: Pick<AuthEvent, "kind" | "method"> & { at: Date },
      audit: AuditEventEntity,
    ): Promise<User> {
      const created = await translateUniqueViolation(() =>
        run.first(
          sql`WITH ${newUserRow(projectId, newUser, event.at, false, user.list)}, event AS (
           INSERT INTO auth_events (organization_id, project_id, user_id, kind, method, tokens_issued, occurred_at)
           VALUES (${newUser.organizationId}, ${projectId}, ${newUser.id}, ${event.kind}, ${event.method}, 0, ${event.at})
         ), ${auditInsertAs("audit", audit)} SELECT * FROM new_user`,
          user.decode,
        ),
      );
      return toUser(inserted(created), event.at);
    },
  };
}

/** The new user row: a signup that answered no row would be a broken statement, not a state. */
function inserted<T>(row: T | null): T {
  if (row === null) throw new RowShapeError("the signup statement answered no user row");
  return row;
}

/** The user row as a CTE `new_user`; `signedIn` false leaves last_login_at empty (no session yet). */
function newUserRow(
  projectId: string,
  user: NewUserWrite,
  createdAt: Date,
  signedIn: boolean,
  columns: Statement,
): Statement {
  const email = user.email === "" ? null : user.email;
  return sql`new_user AS (
           INSERT INTO users (id, organization_id, project_id, email, email_normalized, phone, email_verified, phone_verified,
             password_hash, metadata, locale, created_at, updated_at, last_login_at)
           VALUES (${user.id}, ${user.organizationId}, ${projectId}, ${email}, ${email === null ? null : normalizeEmail(email)},
             ${user.phone}, ${user.emailVerified}, ${user.phoneVerified}, ${user.passwordHash}, ${JSON.stringify(user.metadata)},
             ${user.locale ?? ""}, ${createdAt}, ${createdAt}, ${signedIn ? createdAt : null})
           RETURNING ${columns}
         )`;
}

/**
 * CTEs `past_cap`, `capped` and `cap_audit`: the user's live sessions past the newest `keep`
 * as this statement sees them, revoked, and one `session.revoked` audit row for them (none
 * when nothing ended).
 */
function capWrites(projectId: string, s: Session, cap: SessionCap, keep: number): Statement {
  const a = cap.audit;
  // The sessions past the cap are found once (a walk of the user's live sessions on
  // sessions_live_idx), then each is revoked by its key. Materialized and joined on the key
  // alone (past_cap is already the tenant's), so the planner cannot instead walk every live
  // session of the project and look each one up in past_cap.
  return sql`past_cap AS MATERIALIZED (
           SELECT project_id, id FROM sessions
           WHERE project_id = ${projectId} AND user_id = ${s.userId} AND revoked_at IS NULL AND expires_at > ${s.createdAt}
           ORDER BY created_at DESC, id DESC OFFSET ${keep}
         ), capped AS (
           UPDATE sessions SET revoked_at = ${s.createdAt} FROM past_cap
           WHERE sessions.project_id = past_cap.project_id AND sessions.id = past_cap.id AND sessions.revoked_at IS NULL
           RETURNING sessions.id, sessions.created_at
         ), cap_audit AS (
           INSERT INTO audit_events (${raw(AUDIT_COLUMNS)})
           SELECT ${a.id}, ${a.organizationId}, ${projectId}, ${a.type}, ${s.userId}, ${a.actorType}, ${a.actorId},
             CASE WHEN count(*) = 1 THEN min(id) END, ${a.ipAddress}::text, ${a.userAgent}::text, NULL, NULL,
             ${JSON.stringify(a.details)}::jsonb || jsonb_build_object('count', count(*), 'session_ids', jsonb_agg(id ORDER BY created_at, id)),
             ${a.createdAt}::timestamptz
           FROM capped HAVING count(*) > 0
         )`;
}

/** The session, refresh token, usage and audit events as CTEs. */
function signInWrites(projectId: string, write: SignInWrite): Statement {
  const { session: s, event: e } = write;
  return sql`new_session AS (
           INSERT INTO sessions (id, project_id, user_id, ip_address, user_agent, amr, created_at, last_active_at, expires_at)
           VALUES (${s.id}, ${projectId}, ${s.userId}, ${s.ipAddress}, ${s.userAgent}, ${s.amr}, ${s.createdAt}, ${s.createdAt}, ${s.expiresAt})
           RETURNING id
         ), refresh AS (
           INSERT INTO refresh_tokens (id, project_id, session_id, token_hash, created_at, expires_at)
           SELECT ${newId("rt")}, ${projectId}, id, ${write.refreshTokenHash}, ${s.createdAt}::timestamptz, ${s.expiresAt}::timestamptz FROM new_session
         ), event AS (
           INSERT INTO auth_events (organization_id, project_id, user_id, kind, method, tokens_issued, occurred_at)
           VALUES (${e.organizationId}, ${projectId}, ${s.userId}, ${e.kind}, ${e.method}, ${e.tokensIssued ?? 1}, ${e.at})
         ), ${auditInsertAs("audit", write.audit)}`;
}

/** One audit event's INSERT as a CTE named `name`, so the sign-in's event is written by the same statement as its session. */
function auditInsertAs(name: string, a: AuditEventEntity): Statement {
  return sql`${raw(name)} AS (${auditInsert(a)})`;
}

export type SignInsRepository = ReturnType<typeof signInsRepository>;
