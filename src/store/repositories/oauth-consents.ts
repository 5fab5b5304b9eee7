import type { EntityManager } from "typeorm";
import type { AuthorizedApp, OAuthConsent } from "../../domain/oauth-clients.js";
import { bool, row, sql, statements, text, textArray, timestamp } from "../sql/index.js";

const consentRow = row({
  user_id: text,
  client_id: text,
  scopes: textArray,
  created_at: timestamp,
  updated_at: timestamp,
});

function fromRow(r: ReturnType<typeof consentRow>): OAuthConsent {
  return {
    userId: r.user_id,
    clientId: r.client_id,
    scopes: r.scopes,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const appRow = row({
  user_id: text,
  client_id: text,
  scopes: textArray,
  created_at: timestamp,
  updated_at: timestamp,
  name: text,
  logo_uri: text,
  first_party: bool,
});

// The consent each user gave each OAuth client of the project: the scopes granted, remembered
// until the user (or an admin) revokes it. Everything is per project: a client or a user of
// another project is never matched (the foreign keys also hold a consent to its own project).
export function oauthConsentsRepository(manager: EntityManager) {
  const run = statements(manager);
  return {
    async get(projectId: string, userId: string, clientId: string): Promise<OAuthConsent | undefined> {
      const found = await run.first(
        sql`SELECT user_id, client_id, scopes, created_at, updated_at FROM oauth_consents
             WHERE project_id = ${projectId} AND user_id = ${userId} AND client_id = ${clientId}`,
        consentRow,
      );
      return found ? fromRow(found) : undefined;
    },

    /**
     * Remembers `scopes` as granted, beside those granted before (a consent only grows until it
     * is revoked): `created_at` stays the first consent's, `updated_at` moves when a scope was
     * added. The consent as it is now.
     */
    async grant(
      projectId: string,
      userId: string,
      clientId: string,
      scopes: string[],
      now: Date,
    ): Promise<OAuthConsent> {
      const given = [...new Set(scopes)];
      const granted = await run.first(
        sql`INSERT INTO oauth_consents AS c (project_id, user_id, client_id, scopes, created_at, updated_at)
            VALUES (${projectId}, ${userId}, ${clientId}, ${given}::text[], ${now}, ${now})
            ON CONFLICT (project_id, user_id, client_id) DO UPDATE
               SET scopes = c.scopes || ARRAY(SELECT s FROM unnest(EXCLUDED.scopes) WITH ORDINALITY AS n(s, i)
                                               WHERE s <> ALL (c.scopes) ORDER BY i),
                   updated_at = CASE WHEN EXCLUDED.scopes <@ c.scopes THEN c.updated_at ELSE EXCLUDED.updated_at END
            RETURNING user_id, client_id, scopes, created_at, updated_at`,
        consentRow,
      );
      return fromRow(granted!);
    },

    /** The user's authorized applications, with what ListAuthorizedApps shows of each; newest first. */
    async listOfUser(projectId: string, userId: string): Promise<AuthorizedApp[]> {
      const rows = await run.rows(
        sql`SELECT c.user_id, c.client_id, c.scopes, c.created_at, c.updated_at, o.name, o.logo_uri, o.first_party
              FROM oauth_consents c
              JOIN oauth_clients o ON o.project_id = c.project_id AND o.id = c.client_id
             WHERE c.project_id = ${projectId} AND c.user_id = ${userId}
             ORDER BY c.created_at DESC, c.client_id DESC`,
        appRow,
      );
      return rows.map((r) => ({ ...fromRow(r), name: r.name, logoUri: r.logo_uri, firstParty: r.first_party }));
    },

    /**
     * Withdraws the consent and, in the same statement, ends everything the engine issued to
     * that client for that user: authorization codes, access and refresh tokens, grants, device
     * codes. True when there was a consent or anything issued.
     */
    async revoke(projectId: string, userId: string, clientId: string): Promise<boolean> {
      const revoked = await run.first(
        sql`WITH consent AS (
                DELETE FROM oauth_consents
                 WHERE project_id = ${projectId} AND user_id = ${userId} AND client_id = ${clientId}
                RETURNING 1
              ), issued AS (
                DELETE FROM oidc_payloads
                 WHERE project_id = ${projectId} AND account_id = ${userId} AND client_id = ${clientId}
                RETURNING 1
              )
            SELECT (EXISTS (SELECT 1 FROM consent) OR EXISTS (SELECT 1 FROM issued)) AS revoked`,
        row({ revoked: bool }),
      );
      return revoked?.revoked ?? false;
    },
  };
}

export type OAuthConsentsRepository = ReturnType<typeof oauthConsentsRepository>;
