import type { PageRequest } from "../domain/pagination.js";
import { empty, raw, sql, type Statement } from "./sql/index.js";

/**
 * Newest first by (created_at, id), continuing strictly after the cursor's row, and one row
 * more than the page so the caller can tell whether another page exists. A row-value
 * comparison over an index on (tenant, created_at DESC, id DESC) costs the same on page 1
 * and page 1,000: no OFFSET.
 *
 * Appended to a statement's WHERE clause: the position after the cursor's row, the
 * newest-first order and `limit + 1`; `alias` qualifies the columns.
 */
export function keysetTail(page: PageRequest, alias?: string): Statement {
  const c = raw(alias ? `${alias}.created_at` : "created_at");
  const id = raw(alias ? `${alias}.id` : "id");
  const after = page.after ? sql` AND (${c}, ${id}) < (${page.after.createdAt}, ${page.after.id})` : empty;
  return sql`${after} ORDER BY ${c} DESC, ${id} DESC LIMIT ${page.limit + 1}`;
}
