import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import { normalizeEmail } from "../../domain/account.js";
import type { Session, User } from "../../domain/auth.js";
import type { AuthEvent } from "../../domain/usage.js";
import type { AuditEventEntity } from "../entities/audit-event.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { AUDIT_COLUMNS, auditInsertCte } from "./audit-events.js";
import { toUser, USER_COLUMNS, type UserRow } from "./users.js";

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
}

// Everything a sign-in writes (its session, its first refresh token, the user's last_login_at,
// the usage event and the audit event) in one statement, and for a signup the user row too: one round trip
// instead of six, and atomic on its own, so a sign-in needs no transaction unless it writes
// something else as well.
export function signInsRepository(manager: EntityManager) {
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
    async record(write: SignInWrite): Promise<void> {
      const { session: s, cap } = write;
      const params: unknown[] = [];
      const writes = signInWrites(write, params);
      // The statement does not see its own new session: it keeps max - 1 of the others.
      const statement = `WITH ${writes}, ${capWrites(s, cap, cap.max - 1, params)}, seen AS (
           SELECT xmin AS version FROM users WHERE project_id = $${params.push(s.projectId)} AND id = $${params.push(s.userId)}
         )
         UPDATE users SET last_login_at = GREATEST(users.last_login_at, $${params.push(s.createdAt)}::timestamptz) FROM seen
         WHERE users.project_id = $${params.push(s.projectId)} AND users.id = $${params.push(s.userId)} AND users.xmin = seen.version`;
      const [, updated] = (await manager.query(statement, params)) as [unknown[], number];
      if (updated > 0) return;
      // Raced: under the row lock, the next statement sees every sign-in that changed the row
      // before, and this session (committed, or earlier in this transaction): it keeps max.
      await manager.transaction(async (tx) => {
        await tx.query(`SELECT 1 FROM users WHERE project_id = $1 AND id = $2 FOR NO KEY UPDATE`, [s.projectId, s.userId]);
        const again: unknown[] = [];
        const audit = { ...cap.audit, id: newId("aev", s.createdAt.getTime()) };
        await tx.query(
          `WITH ${capWrites(s, { ...cap, audit }, cap.max, again)}
           UPDATE users SET last_login_at = GREATEST(users.last_login_at, $${again.push(s.createdAt)}::timestamptz)
           WHERE project_id = $${again.push(s.projectId)} AND id = $${again.push(s.userId)}`,
          again,
        );
      });
    },

    /**
     * A signup: the user row (last_login_at already set) with the sign-in's writes. A duplicate
     * email is UniqueViolation users_project_email_key, and then nothing at all was written.
     */
    async recordSignup(user: NewUserWrite, write: SignInWrite): Promise<User> {
      const params: unknown[] = [];
      const rows = (await translateUniqueViolation(() =>
        manager.query(`WITH ${newUserRow(user, write.session.projectId, write.session.createdAt, true, params)}, ${signInWrites(write, params)} SELECT * FROM new_user`, params),
      )) as UserRow[];
      return toUser(rows[0], write.session.createdAt);
    },

    /**
     * A signup held at an MFA enrollment challenge (project mfa_required): the user row and its
     * usage event, with no session and no token yet.
     */
    async recordSignupWithoutSession(
      user: NewUserWrite,
      projectId: string,
      event: Pick<AuthEvent, "kind" | "method"> & { at: Date },
      audit: AuditEventEntity,
    ): Promise<User> {
      const params: unknown[] = [];
      const p = (value: unknown) => `$${params.push(value)}`;
      const sql = `WITH ${newUserRow(user, projectId, event.at, false, params)}, event AS (
           INSERT INTO auth_events (organization_id, project_id, user_id, kind, method, tokens_issued, occurred_at)
           VALUES (${p(user.organizationId)}, ${p(projectId)}, ${p(user.id)}, ${p(event.kind)}, ${p(event.method)}, 0, ${p(event.at)})
         ), ${auditInsertCte("audit", audit, params)} SELECT * FROM new_user`;
      const rows = (await translateUniqueViolation(() => manager.query(sql, params))) as UserRow[];
      return toUser(rows[0], event.at);
    },
  };
}

/** The user row as a CTE `new_user`; `signedIn` false leaves last_login_at empty (no session yet). */
function newUserRow(user: NewUserWrite, projectId: string, createdAt: Date, signedIn: boolean, params: unknown[]): string {
  const p = (value: unknown) => `$${params.push(value)}`;
  const email = user.email === "" ? null : user.email;
  const at = p(createdAt);
  return `new_user AS (
           INSERT INTO users (id, organization_id, project_id, email, email_normalized, phone, email_verified, phone_verified,
             password_hash, metadata, created_at, updated_at, last_login_at)
           VALUES (${p(user.id)}, ${p(user.organizationId)}, ${p(projectId)}, ${p(email)}, ${p(email === null ? null : normalizeEmail(email))},
             ${p(user.phone)}, ${p(user.emailVerified)}, ${p(user.phoneVerified)}, ${p(user.passwordHash)}, ${p(JSON.stringify(user.metadata))},
             ${at}, ${at}, ${signedIn ? at : "NULL"})
           RETURNING ${USER_COLUMNS}
         )`;
}

/**
 * CTEs `past_cap`, `capped` and `cap_audit`: the user's live sessions past the newest `keep`
 * as this statement sees them, revoked, and one `session.revoked` audit row for them (none
 * when nothing ended).
 */
function capWrites(s: Session, cap: SessionCap, keep: number, params: unknown[]): string {
  const p = (value: unknown) => `$${params.push(value)}`;
  const project = p(s.projectId);
  const user = p(s.userId);
  const now = p(s.createdAt);
  const a = cap.audit;
  // The sessions past the cap are found once (a walk of the user's live sessions on
  // sessions_live_idx), then each is revoked by its key. Materialized and joined on the key
  // alone (past_cap is already the tenant's), so the planner cannot instead walk every live
  // session of the project and look each one up in past_cap.
  return `past_cap AS MATERIALIZED (
           SELECT project_id, id FROM sessions
           WHERE project_id = ${project} AND user_id = ${user} AND revoked_at IS NULL AND expires_at > ${now}
           ORDER BY created_at DESC, id DESC OFFSET ${p(keep)}
         ), capped AS (
           UPDATE sessions SET revoked_at = ${now} FROM past_cap
           WHERE sessions.project_id = past_cap.project_id AND sessions.id = past_cap.id AND sessions.revoked_at IS NULL
           RETURNING sessions.id, sessions.created_at
         ), cap_audit AS (
           INSERT INTO audit_events (${AUDIT_COLUMNS})
           SELECT ${p(a.id)}, ${p(a.organizationId)}, ${project}, ${p(a.type)}, ${user}, ${p(a.actorType)}, ${p(a.actorId)},
             CASE WHEN count(*) = 1 THEN min(id) END, ${p(a.ipAddress)}::text, ${p(a.userAgent)}::text, NULL, NULL,
             ${p(JSON.stringify(a.details))}::jsonb || jsonb_build_object('count', count(*), 'session_ids', jsonb_agg(id ORDER BY created_at, id)),
             ${p(a.createdAt)}::timestamptz
           FROM capped HAVING count(*) > 0
         )`;
}

/** The session, refresh token, usage and audit events as CTEs, their parameters appended to `params`. */
function signInWrites(write: SignInWrite, params: unknown[]): string {
  const { session: s, event: e } = write;
  const p = (value: unknown) => `$${params.push(value)}`;
  const project = p(s.projectId);
  const created = p(s.createdAt);
  const expires = p(s.expiresAt);
  return `new_session AS (
           INSERT INTO sessions (id, project_id, user_id, ip_address, user_agent, amr, created_at, last_active_at, expires_at)
           VALUES (${p(s.id)}, ${project}, ${p(s.userId)}, ${p(s.ipAddress)}, ${p(s.userAgent)}, ${p(s.amr)}, ${created}, ${created}, ${expires})
           RETURNING id
         ), refresh AS (
           INSERT INTO refresh_tokens (id, project_id, session_id, token_hash, created_at, expires_at)
           SELECT ${p(newId("rt"))}, ${project}, id, ${p(write.refreshTokenHash)}, ${created}, ${expires} FROM new_session
         ), event AS (
           INSERT INTO auth_events (organization_id, project_id, user_id, kind, method, tokens_issued, occurred_at)
           VALUES (${p(e.organizationId)}, ${project}, ${p(s.userId)}, ${p(e.kind)}, ${p(e.method)}, ${p(e.tokensIssued ?? 1)}, ${p(e.at)})
         ), ${auditInsertCte("audit", write.audit, params)}`;
}

export type SignInsRepository = ReturnType<typeof signInsRepository>;
