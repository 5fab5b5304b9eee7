import type { EntityManager } from "typeorm";
import type { AuthorizedApp, OAuthConsent } from "../../domain/oauth-clients.js";
import { OAuthConsentEntity } from "../entities/oauth-consent.entity.js";
import { bool, entityColumns, row, type RowOf, sql, statements, text } from "../sql/index.js";

// The project is the caller's: every statement names it.
const CONSENT = entityColumns(OAuthConsentEntity, { omit: ["projectId"] });

function fromRow(r: RowOf<typeof CONSENT>): OAuthConsent {
  return {
    userId: r.userId,
    clientId: r.clientId,
    scopes: r.scopes,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

// Not the client's shape: the three of its columns an authorized app shows beside the consent.
const appOf = row({ name: text, logoUri: text, firstParty: bool });

// The consent each user gave each OAuth client of the project: the scopes granted, remembered
// until the user (or an admin) revokes it. Everything is per project: a client or a user of
// another project is never matched (the foreign keys also hold a consent to its own project).
export function oauthConsentsRepository(manager: EntityManager) {
  const run = statements(manager);
  const consent = CONSENT.on(manager);
  const app = (r: unknown): AuthorizedApp => ({ ...fromRow(consent.decode(r)), ...appOf(r) });
  return {
    async get(projectId: string, userId: string, clientId: string): Promise<OAuthConsent | undefined> {
      const found = await run.first(
        sql`SELECT ${consent.list} FROM oauth_consents
             WHERE project_id = ${projectId} AND user_id = ${userId} AND client_id = ${clientId}`,
        consent.decode,
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
            RETURNING ${consent.list}`,
        consent.decode,
      );
      // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- an upsert with RETURNING answers its one row
      return fromRow(granted!);
    },

    /** The user's authorized applications, with what ListAuthorizedApps shows of each; newest first. */
    async listOfUser(projectId: string, userId: string): Promise<AuthorizedApp[]> {
      const rows = await run.rows(
        sql`SELECT ${consent.qualified("c")}, o.name, o.logo_uri AS "logoUri", o.first_party AS "firstParty"
              FROM oauth_consents c
              JOIN oauth_clients o ON o.project_id = c.project_id AND o.id = c.client_id
             WHERE c.project_id = ${projectId} AND c.user_id = ${userId}
             ORDER BY c.created_at DESC, c.client_id DESC`,
        app,
      );
      return rows;
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
