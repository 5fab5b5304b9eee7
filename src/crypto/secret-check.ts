import { ConfigError } from "../config.js";
import type { Database } from "../store/database.js";
import type { SecretBox } from "./secret-box.js";

/**
 * The kinds of sealed rows, in the order they are tried: the first kind with a row decides. A
 * project always has a signing key, so on any database in use the first query answers; the
 * others cover a database whose projects were all deleted.
 */
const SEALED_KINDS: ReadonlyArray<{ what: string; table: string; sql: string }> = [
  {
    what: "a project signing key",
    table: "project_signing_keys",
    sql: "SELECT kid AS id, private_jwk_sealed AS sealed, kid AS bound FROM project_signing_keys ORDER BY created_at DESC LIMIT 1",
  },
  {
    what: "a TOTP secret",
    table: "mfa_factors",
    sql: "SELECT id, secret_sealed AS sealed, id AS bound FROM mfa_factors WHERE secret_sealed IS NOT NULL LIMIT 1",
  },
  {
    what: "an SSO connection's client secret",
    table: "sso_connections",
    sql: "SELECT id, client_secret_sealed AS sealed, id AS bound FROM sso_connections LIMIT 1",
  },
  {
    what: "a webhook endpoint's signing secret",
    table: "webhook_endpoints",
    sql: "SELECT id, secret_sealed AS sealed, id AS bound FROM webhook_endpoints LIMIT 1",
  },
  {
    what: "a hook's secret",
    table: "hooks",
    sql: "SELECT project_id || '/' || kind AS id, secret_sealed AS sealed, project_id || '/' || kind AS bound FROM hooks LIMIT 1",
  },
];

/**
 * Opens one stored secret with the key given, at start. A key that differs from the one that
 * sealed the database (a GATEHOUSE_SECRET mistyped, another instance's, a lost secret.key)
 * would otherwise start healthy and answer 500 to every sign-in (issue 46): it stops the start
 * instead, with a ConfigError naming the key's source (`GATEHOUSE_SECRET` or the key file) and
 * the row that did not open. A database with nothing sealed yet accepts any key.
 */
export async function checkSecretOpensStoredRows(db: Database, secrets: SecretBox, source: string): Promise<void> {
  for (const kind of SEALED_KINDS) {
    const rows = await db.dataSource.query<Array<{ id: string; sealed: string; bound: string }>>(kind.sql);
    if (rows.length === 0) continue;
    const [row] = rows;
    try {
      secrets.open(row.sealed, row.bound);
    } catch {
      throw new ConfigError(
        source,
        `differs from the key that sealed this database's secrets: ${kind.what} (${kind.table}, ${row.id}) does not open with it; ${
          source === "GATEHOUSE_SECRET"
            ? "set GATEHOUSE_SECRET to the key the database was sealed with"
            : "put back the key file the database was sealed with, or set GATEHOUSE_SECRET to that key"
        }`,
      );
    }
    return;
  }
}
