import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import { normalizeEmail } from "../../domain/account.js";
import type { Session, User } from "../../domain/auth.js";
import type { AuthEvent } from "../../domain/usage.js";
import type { AuditEventEntity } from "../entities/audit-event.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { auditInsertCte } from "./audit-events.js";
import { toUser, USER_COLUMNS, type UserRow } from "./users.js";

export interface SignInWrite {
  /** The new session, id included (the access token names it before it is written). */
  session: Session;
  refreshTokenHash: string;
  event: AuthEvent & { at: Date };
  /** The audit event (user.signup or user.login.succeeded), written in the same statement. */
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
    async record(write: SignInWrite): Promise<void> {
      const params: unknown[] = [];
      const writes = signInWrites(write, params);
      await manager.query(
        `WITH ${writes}
         UPDATE users SET last_login_at = $${params.push(write.session.createdAt)}
         WHERE project_id = $${params.push(write.session.projectId)} AND id = $${params.push(write.session.userId)}`,
        params,
      );
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
