import type { DataSource } from "typeorm";

/** The connections of a data source's pool, as pg-pool counts them. */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  /** The most connections the pool opens. */
  max: number;
}

/**
 * For the metrics. TypeORM offers no accessor for its pool: its postgres driver keeps the
 * pg.Pool as `master` (PGlite is reached through the same driver), so the store reads it here,
 * in one place, and undefined when a TypeORM version keeps it elsewhere.
 */
export function poolCounts(dataSource: DataSource): PoolCounts | undefined {
  const pool = (
    dataSource.driver as unknown as { master?: Partial<Omit<PoolCounts, "max">> & { options?: { max?: number } } }
  ).master;
  if (!pool || typeof pool.totalCount !== "number") return undefined;
  return {
    totalCount: pool.totalCount,
    idleCount: pool.idleCount ?? 0,
    waitingCount: pool.waitingCount ?? 0,
    max: pool.options?.max ?? 0,
  };
}
