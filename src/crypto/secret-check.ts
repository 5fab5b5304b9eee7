import { ConfigError } from "../config.js";
import type { Database } from "../store/database.js";
import type { SealedTable } from "../store/repositories/sealed-rows.js";
import type { SecretBox } from "./secret-box.js";

/** What each table's sealed secret is, for the message that names the row that did not open. */
const SEALED_WHAT: Readonly<Record<SealedTable, string>> = {
  project_signing_keys: "a project signing key",
  mfa_factors: "a TOTP secret",
  sso_connections: "an SSO connection's client secret",
  webhook_endpoints: "a webhook endpoint's signing secret",
  hooks: "a hook's secret",
};

/**
 * Opens one stored secret with the key given, at start. A key that differs from the one that
 * sealed the database (a GATEHOUSE_SECRET mistyped, another instance's, a lost secret.key)
 * would otherwise start healthy and answer 500 to every sign-in (issue 46): it stops the start
 * instead, with a ConfigError naming the key's source (`GATEHOUSE_SECRET` or the key file) and
 * the row that did not open. A database with nothing sealed yet accepts any key.
 */
export async function checkSecretOpensStoredRows(db: Database, secrets: SecretBox, source: string): Promise<void> {
  const row = await db.repos.sealedRows.sample();
  if (!row) return;
  try {
    secrets.open(row.sealed, row.bound);
  } catch {
    throw new ConfigError(
      source,
      `differs from the key that sealed this database's secrets: ${SEALED_WHAT[row.table]} (${row.table}, ${row.id}) does not open with it; ${
        source === "GATEHOUSE_SECRET"
          ? "set GATEHOUSE_SECRET to the key the database was sealed with"
          : "put back the key file the database was sealed with, or set GATEHOUSE_SECRET to that key"
      }`,
    );
  }
}
