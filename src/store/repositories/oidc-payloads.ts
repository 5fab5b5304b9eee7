import type { EntityManager } from "typeorm";
import { hashToken } from "../../crypto/tokens.js";
import { jsonObject, nullable, row, sql, statements, text, timestamp } from "../sql/index.js";

/**
 * The engine's ids are its secrets (a refresh token, an authorization or device code, the value
 * of its session cookie, a user code), so a row keeps only their SHA-256, as Gatehouse keeps its
 * own tokens: the id goes into the key column hashed and out of the payload. A row found other
 * than by its id (by uid or user code) is handed back with the hash as its id, marked with this
 * prefix (which the engine's ids, nanoid's alphabet, never contain), so the engine saves it back
 * to the same row.
 */
const HASHED = "sha256:";

function storedKey(value: string): string {
  return value.startsWith(HASHED) ? value.slice(HASHED.length) : hashToken(value);
}

/**
 * The payload as stored: without the secrets that are the row's keys, nor the engine session's
 * cookie value an interaction copies for the application's information (the engine never reads
 * it back).
 */
function storable(payload: Record<string, unknown>): Record<string, unknown> {
  const { jti: _jti, userCode: _userCode, ...rest } = payload;
  if (rest.session !== null && typeof rest.session === "object") {
    const { cookie: _cookie, ...session } = rest.session as Record<string, unknown>;
    rest.session = session;
  }
  return rest;
}

/** What the OpenID Provider's engine stores of one model (its adapter interface). */
export interface OidcPayloadWrite {
  model: string;
  id: string;
  payload: Record<string, unknown>;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  clientId: string | null;
  accountId: string | null;
  /**
   * The Gatehouse session this row is bound to. For a Session, given by the sign-in that made
   * it (null keeps the one it had); for a code or token, null: taken from its engine session
   * (`sessionUid`), else from another token of its grant.
   */
  sessionId: string | null;
  sessionUid: string | null;
  expiresAt: Date | null;
}

const sessionRow = row({ session_id: nullable(text) });

const foundRow = row({
  id: text,
  payload: jsonObject,
  consumed_at: nullable(timestamp),
  expires_at: nullable(timestamp),
  session_id: nullable(text),
  live: nullable(text),
});

export interface OidcPayloadFound {
  payload: Record<string, unknown>;
  consumedAt: Date | null;
  expiresAt: Date | null;
  /** The bound Gatehouse session, if any. */
  sessionId: string | null;
  /** False when the bound session was revoked or expired, or its user disabled or deleted. */
  sessionLive: boolean;
}

/**
 * The Gatehouse session a code or token belongs to: its engine session's (by uid), else that of
 * another token of its grant. One expression for the upsert that records it and the lookup.
 */
function boundSessionOf(projectId: string, sessionUid: string | null, grantId: string | null) {
  return sql`COALESCE(
    (SELECT s.session_id FROM oidc_payloads s
      WHERE s.project_id = ${projectId} AND s.model = 'Session' AND s.uid = ${sessionUid}::text
      ORDER BY s.expires_at DESC NULLS LAST LIMIT 1),
    (SELECT g.session_id FROM oidc_payloads g
      WHERE g.project_id = ${projectId} AND g.grant_id = ${grantId}::text AND g.session_id IS NOT NULL
      ORDER BY g.expires_at DESC NULLS LAST LIMIT 1))`;
}

// The engine's storage: one table for every model (codes, tokens, grants, engine sessions,
// interactions, device codes), scoped by project. What a row is bound to sits beside the payload
// so deleting a user, a client or a consent ends its codes and tokens in SQL.
export function oidcPayloadsRepository(manager: EntityManager) {
  const run = statements(manager);
  return {
    async upsert(projectId: string, w: OidcPayloadWrite): Promise<void> {
      const inherited =
        w.model === "Session" ? sql`${w.sessionId}::text` : boundSessionOf(projectId, w.sessionUid, w.grantId);
      await run.execute(
        sql`INSERT INTO oidc_payloads (model, id, project_id, payload, grant_id, user_code, uid, client_id, account_id, session_id, expires_at)
            VALUES (${w.model}, ${storedKey(w.id)}, ${projectId}, ${JSON.stringify(storable(w.payload))}::jsonb, ${w.grantId},
                    ${w.userCode === null ? null : storedKey(w.userCode)},
                    ${w.uid}, ${w.clientId}, ${w.accountId}, ${inherited}, ${w.expiresAt})
            ON CONFLICT (model, id) DO UPDATE
               SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
                   user_code = COALESCE(EXCLUDED.user_code, oidc_payloads.user_code),
                   uid = EXCLUDED.uid, client_id = EXCLUDED.client_id, account_id = EXCLUDED.account_id,
                   session_id = COALESCE(EXCLUDED.session_id, oidc_payloads.session_id), expires_at = EXCLUDED.expires_at
             WHERE oidc_payloads.project_id = ${projectId}`,
      );
    },

    /** By id, uid or user code; with whether the Gatehouse session it is bound to still holds. */
    async find(
      projectId: string,
      model: string,
      by: { id: string } | { uid: string } | { userCode: string },
      now: Date,
    ): Promise<OidcPayloadFound | undefined> {
      const where =
        "id" in by
          ? sql`p.id = ${storedKey(by.id)}`
          : "uid" in by
            ? sql`p.uid = ${by.uid}`
            : sql`p.user_code = ${storedKey(by.userCode)}`;
      const found = await run.first(
        sql`SELECT p.id, p.payload, p.consumed_at, p.expires_at, p.session_id,
                   CASE WHEN p.session_id IS NULL THEN 'unbound'
                        WHEN s.revoked_at IS NULL AND s.expires_at > ${now} AND NOT u.disabled THEN 'live' END AS live
              FROM oidc_payloads p
              LEFT JOIN sessions s ON s.project_id = p.project_id AND s.id = p.session_id
              LEFT JOIN users u ON u.project_id = s.project_id AND u.id = s.user_id
             WHERE p.project_id = ${projectId} AND p.model = ${model} AND ${where}`,
        foundRow,
      );
      if (!found) return undefined;
      // The id as the caller knows it (the raw one it asked by), else the hash, marked.
      const jti = "id" in by ? by.id : `${HASHED}${found.id}`;
      return {
        payload: { ...found.payload, jti, ...("userCode" in by ? { userCode: by.userCode } : {}) },
        consumedAt: found.consumed_at,
        expiresAt: found.expires_at,
        sessionId: found.session_id,
        sessionLive: found.live !== null,
      };
    },

    /** The Gatehouse session an engine session (by uid), else a grant, is bound to. */
    async boundSession(projectId: string, sessionUid: string | null, grantId: string | null): Promise<string | null> {
      const found = await run.first(
        sql`SELECT ${boundSessionOf(projectId, sessionUid, grantId)} AS session_id`,
        sessionRow,
      );
      return found?.session_id ?? null;
    },

    async consume(projectId: string, model: string, id: string, now: Date): Promise<void> {
      await run.execute(
        sql`UPDATE oidc_payloads SET consumed_at = ${now}
             WHERE project_id = ${projectId} AND model = ${model} AND id = ${storedKey(id)}`,
      );
    },

    async destroy(projectId: string, model: string, id: string): Promise<void> {
      await run.execute(
        sql`DELETE FROM oidc_payloads WHERE project_id = ${projectId} AND model = ${model} AND id = ${storedKey(id)}`,
      );
    },

    /** Every code and token of a grant, and the grant: what a replayed code or a revocation ends. */
    async revokeByGrantId(projectId: string, grantId: string): Promise<void> {
      await run.execute(sql`DELETE FROM oidc_payloads WHERE project_id = ${projectId} AND grant_id = ${grantId}`);
    },

    /** Rows past their expiry (kept a day, as the engine may still read a consumed code to detect replay). */
    async deleteExpired(before: Date): Promise<number> {
      return run.affected(sql`DELETE FROM oidc_payloads WHERE expires_at < ${before}`);
    },
  };
}

export type OidcPayloadsRepository = ReturnType<typeof oidcPayloadsRepository>;
