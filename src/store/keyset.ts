import type { ObjectLiteral, SelectQueryBuilder } from "typeorm";
import type { PageRequest } from "../domain/pagination.js";
import { empty, raw, sql, type Statement } from "./sql/index.js";

/**
 * Newest first by (created_at, id), continuing strictly after the cursor's row, and one row
 * more than the page so the caller can tell whether another page exists. A row-value
 * comparison over an index on (tenant, created_at DESC, id DESC) costs the same on page 1
 * and page 1,000: no OFFSET.
 */
export function keysetPage<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  page: PageRequest,
): SelectQueryBuilder<T> {
  if (page.after) {
    qb.andWhere(`(${alias}.createdAt, ${alias}.id) < (:afterCreatedAt, :afterId)`, {
      afterCreatedAt: page.after.createdAt,
      afterId: page.after.id,
    });
  }
  return qb
    .orderBy(`${alias}.createdAt`, "DESC")
    .addOrderBy(`${alias}.id`, "DESC")
    .limit(page.limit + 1);
}

/**
 * keysetPage for the `sql` tag: appended to a statement's WHERE clause, the position after the
 * cursor's row, the newest-first order and `limit + 1`; `alias` qualifies the columns.
 */
export function keysetTail(page: PageRequest, alias?: string): Statement {
  const c = raw(alias ? `${alias}.created_at` : "created_at");
  const id = raw(alias ? `${alias}.id` : "id");
  const after = page.after ? sql` AND (${c}, ${id}) < (${page.after.createdAt}, ${page.after.id})` : empty;
  return sql`${after} ORDER BY ${c} DESC, ${id} DESC LIMIT ${page.limit + 1}`;
}
