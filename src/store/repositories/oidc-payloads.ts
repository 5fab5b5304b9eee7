import type { EntityManager } from "typeorm";
import { jsonObject, nullable, row, sql, statements, text, timestamp } from "../sql/index.js";

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

// The engine's storage: one table for every model (codes, tokens, grants, engine sessions,
// interactions, device codes), scoped by project. What a row is bound to sits beside the payload
// so deleting a user, a client or a consent ends its codes and tokens in SQL.
export function oidcPayloadsRepository(manager: EntityManager) {
  const run = statements(manager);
  return {
    async upsert(projectId: string, w: OidcPayloadWrite): Promise<void> {
      const inherited =
        w.model === "Session"
          ? sql`${w.sessionId}::text`
          : sql`COALESCE(
              (SELECT s.session_id FROM oidc_payloads s
                WHERE s.project_id = ${projectId} AND s.model = 'Session' AND s.uid = ${w.sessionUid}::text),
              (SELECT g.session_id FROM oidc_payloads g
                WHERE g.project_id = ${projectId} AND g.grant_id = ${w.grantId}::text AND g.session_id IS NOT NULL
                ORDER BY g.expires_at DESC NULLS LAST LIMIT 1))`;
      await run.execute(
        sql`INSERT INTO oidc_payloads (model, id, project_id, payload, grant_id, user_code, uid, client_id, account_id, session_id, expires_at)
            VALUES (${w.model}, ${w.id}, ${projectId}, ${JSON.stringify(w.payload)}::jsonb, ${w.grantId}, ${w.userCode},
                    ${w.uid}, ${w.clientId}, ${w.accountId}, ${inherited}, ${w.expiresAt})
            ON CONFLICT (model, id) DO UPDATE
               SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, user_code = EXCLUDED.user_code,
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
        "id" in by ? sql`p.id = ${by.id}` : "uid" in by ? sql`p.uid = ${by.uid}` : sql`p.user_code = ${by.userCode}`;
      const found = await run.first(
        sql`SELECT p.payload, p.consumed_at, p.expires_at, p.session_id,
                   CASE WHEN p.session_id IS NULL THEN 'unbound'
                        WHEN s.revoked_at IS NULL AND s.expires_at > ${now} AND NOT u.disabled THEN 'live' END AS live
              FROM oidc_payloads p
              LEFT JOIN sessions s ON s.project_id = p.project_id AND s.id = p.session_id
              LEFT JOIN users u ON u.project_id = s.project_id AND u.id = s.user_id
             WHERE p.project_id = ${projectId} AND p.model = ${model} AND ${where}`,
        foundRow,
      );
      if (!found) return undefined;
      return {
        payload: found.payload,
        consumedAt: found.consumed_at,
        expiresAt: found.expires_at,
        sessionId: found.session_id,
        sessionLive: found.live !== null,
      };
    },

    /** The Gatehouse session an engine session (by uid), else a grant, is bound to. */
    async boundSession(projectId: string, sessionUid: string | null, grantId: string | null): Promise<string | null> {
      const found = await run.first(
        sql`SELECT COALESCE(
              (SELECT s.session_id FROM oidc_payloads s
                WHERE s.project_id = ${projectId} AND s.model = 'Session' AND s.uid = ${sessionUid}::text),
              (SELECT g.session_id FROM oidc_payloads g
                WHERE g.project_id = ${projectId} AND g.grant_id = ${grantId}::text AND g.session_id IS NOT NULL
                ORDER BY g.expires_at DESC NULLS LAST LIMIT 1)) AS session_id`,
        sessionRow,
      );
      return found?.session_id ?? null;
    },

    async consume(projectId: string, model: string, id: string, now: Date): Promise<void> {
      await run.execute(
        sql`UPDATE oidc_payloads SET consumed_at = ${now}
             WHERE project_id = ${projectId} AND model = ${model} AND id = ${id}`,
      );
    },

    async destroy(projectId: string, model: string, id: string): Promise<void> {
      await run.execute(
        sql`DELETE FROM oidc_payloads WHERE project_id = ${projectId} AND model = ${model} AND id = ${id}`,
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
