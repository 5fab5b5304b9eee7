import type { EntityManager } from "typeorm";
import { row, sql, statements, text, type Statement } from "../sql/index.js";

/** The tables that hold a secret sealed with GATEHOUSE_SECRET (crypto/secret-box.ts). */
export type SealedTable = "project_signing_keys" | "mfa_factors" | "sso_connections" | "webhook_endpoints" | "hooks";

/** One sealed secret: the row's id, the sealed text, and what it was sealed bound to. */
export interface SealedRow {
  table: SealedTable;
  id: string;
  sealed: string;
  bound: string;
}

const sealedRow = row({ id: text, sealed: text, bound: text });

/**
 * The kinds of sealed rows, in the order they are tried: the first kind with a row decides. A
 * project always has a signing key, so on any database in use the first query answers; the
 * others cover a database whose projects were all deleted.
 */
const SEALED: ReadonlyArray<readonly [SealedTable, Statement]> = [
  [
    "project_signing_keys",
    sql`SELECT kid AS id, private_jwk_sealed AS sealed, kid AS bound FROM project_signing_keys ORDER BY created_at DESC LIMIT 1`,
  ],
  [
    "mfa_factors",
    sql`SELECT id, secret_sealed AS sealed, id AS bound FROM mfa_factors WHERE secret_sealed IS NOT NULL LIMIT 1`,
  ],
  ["sso_connections", sql`SELECT id, client_secret_sealed AS sealed, id AS bound FROM sso_connections LIMIT 1`],
  ["webhook_endpoints", sql`SELECT id, secret_sealed AS sealed, id AS bound FROM webhook_endpoints LIMIT 1`],
  [
    "hooks",
    sql`SELECT project_id || '/' || kind AS id, secret_sealed AS sealed, project_id || '/' || kind AS bound FROM hooks LIMIT 1`,
  ],
];

// Across tenants by design: the start-up check (crypto/secret-check.ts) asks whether the key
// given opens what the database holds, whoever's it is, and never shows the secret.
export function sealedRowsRepository(manager: EntityManager) {
  const run = statements(manager);
  return {
    /** One sealed secret of the first kind that has any; null when nothing is sealed yet. */
    async sample(): Promise<SealedRow | null> {
      for (const [table, statement] of SEALED) {
        const found = await run.first(statement, sealedRow);
        if (found) return { table, ...found };
      }
      return null;
    },
  };
}

export type SealedRowsRepository = ReturnType<typeof sealedRowsRepository>;
