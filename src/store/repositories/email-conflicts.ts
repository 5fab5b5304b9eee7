import type { EntityManager } from "typeorm";

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

interface Row {
  id: string;
  table_name: string;
  row_id: string;
  project_id: string | null;
  organization_id: string | null;
  email: string;
  canonical: string | null;
  reason: "refused" | "collision";
  description: string;
  found_at: Date;
  current_email: string | null;
}

// What the migration wrote is kept as it found it; whether a row still stands is read from the
// row it names at the time of asking.
export function emailConflictsRepository(manager: EntityManager) {
  return {
    async list(): Promise<EmailConflict[]> {
      const rows = (await manager.query(
        `SELECT c.*, CASE c.table_name
                  WHEN 'users' THEN (SELECT u.email FROM users u WHERE u.id = c.row_id)
                  WHEN 'member_identities' THEN (SELECT i.email FROM member_identities i WHERE i.id = c.row_id)
                  WHEN 'invitations' THEN (SELECT v.email FROM invitations v WHERE v.id = c.row_id AND v.accepted_at IS NULL)
                END AS current_email
         FROM email_canonical_conflicts c ORDER BY c.id`,
      )) as Row[];
      return rows.map((r) => ({
        id: Number(r.id),
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
