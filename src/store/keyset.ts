import type { ObjectLiteral, SelectQueryBuilder } from "typeorm";
import type { PageRequest } from "../domain/pagination.js";

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
