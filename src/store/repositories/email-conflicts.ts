import type { EntityManager } from "typeorm";
import { EmailCanonicalConflictEntity } from "../entities/email-canonical-conflict.entity.js";
import { entityColumns, int, nullable, oneOf, row, sql, statements, text } from "../sql/index.js";

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

const CONFLICT = entityColumns(EmailCanonicalConflictEntity, { narrow: { reason: oneOf("refused", "collision") } });
// Not the conflict's column: the address its row holds now.
const currentEmail = row({ currentEmail: nullable(text) });

// What the migration wrote is kept as it found it; whether a row still stands is read from the
// row it names at the time of asking.
export function emailConflictsRepository(manager: EntityManager) {
  const run = statements(manager);
  const conflict = CONFLICT.on(manager);
  const decode = (r: unknown) => ({ ...conflict.decode(r), ...currentEmail(r) });
  return {
    async list(): Promise<EmailConflict[]> {
      // One statement: each conflict with the address its row has now, from whichever table it names.
      const rows = await run.rows(
        sql`SELECT ${conflict.qualified("c")},
                   CASE c.table_name
                     WHEN 'users' THEN (SELECT u.email FROM users u WHERE u.id = c.row_id)
                     WHEN 'member_identities' THEN (SELECT i.email FROM member_identities i WHERE i.id = c.row_id)
                     WHEN 'invitations' THEN (SELECT v.email FROM invitations v WHERE v.id = c.row_id AND v.accepted_at IS NULL)
                   END AS "currentEmail"
            FROM email_canonical_conflicts c ORDER BY c.id`,
        decode,
      );
      return rows.map((r) => ({
        // int8 comes as text; the ids are a count of conflicts, far below 2^53.
        id: int(r.id, "id"),
        table: r.tableName,
        rowId: r.rowId,
        projectId: r.projectId,
        organizationId: r.organizationId,
        email: r.email,
        canonical: r.canonical,
        reason: r.reason,
        description: r.description,
        foundAt: r.foundAt,
        resolved: r.currentEmail !== r.email,
      }));
    },
  };
}
