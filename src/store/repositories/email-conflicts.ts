import type { EntityManager } from "typeorm";
import { int, nullable, oneOf, row, sql, statements, text, timestamp } from "../sql/index.js";

/** A stored address the email canonical-form migration left with its old key (docs/security.md). */
export interface EmailConflict {
  id: number;
  /** `users`, `member_identities` or `invitations`. */
  table: string;
  rowId: string;
  projectId: string | null;
  organizationId: string | null;
  /** The address as stored when the migration ran. */
  email: string;
  /** Its canonical form; null when the rule refuses the address. */
  canonical: string | null;
  reason: "refused" | "collision";
  description: string;
  foundAt: Date;
  /** The row is gone, or its address changed since (a new address gets a key by the rule). */
  resolved: boolean;
}

const conflictRow = row({
  id: int,
  table_name: text,
  row_id: text,
  project_id: nullable(text),
  organization_id: nullable(text),
  email: text,
  canonical: nullable(text),
  reason: oneOf("refused", "collision"),
  description: text,
  found_at: timestamp,
  current_email: nullable(text),
});

// What the migration wrote is kept as it found it; whether a row still stands is read from the
// row it names at the time of asking.
export function emailConflictsRepository(manager: EntityManager) {
  const run = statements(manager);
  return {
    async list(): Promise<EmailConflict[]> {
      // One statement: each conflict with the address its row has now, from whichever table it names.
      const rows = await run.rows(
        sql`SELECT c.id, c.table_name, c.row_id, c.project_id, c.organization_id, c.email, c.canonical, c.reason, c.description, c.found_at,
                   CASE c.table_name
                     WHEN 'users' THEN (SELECT u.email FROM users u WHERE u.id = c.row_id)
                     WHEN 'member_identities' THEN (SELECT i.email FROM member_identities i WHERE i.id = c.row_id)
                     WHEN 'invitations' THEN (SELECT v.email FROM invitations v WHERE v.id = c.row_id AND v.accepted_at IS NULL)
                   END AS current_email
            FROM email_canonical_conflicts c ORDER BY c.id`,
        conflictRow,
      );
      return rows.map((r) => ({
        id: r.id,
        table: r.table_name,
        rowId: r.row_id,
        projectId: r.project_id,
        organizationId: r.organization_id,
        email: r.email,
        canonical: r.canonical,
        reason: r.reason,
        description: r.description,
        foundAt: r.found_at,
        resolved: r.current_email !== r.email,
      }));
    },
  };
}
