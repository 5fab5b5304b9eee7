import type { DataSource } from "typeorm";

/**
 * What TypeORM's migration generation would add to a migrated database so that it matches the
 * entities: the statements `migration:generate` would write. Empty when the entities state the
 * schema the migrations built. `tables` narrows it to the statements that name those tables.
 */
export async function schemaDrift(dataSource: DataSource, tables?: string[]): Promise<string[]> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  const queries = log.upQueries.map((q) => q.query);
  if (!tables) return queries;
  return queries.filter((q) => tables.some((t) => q.includes(`"${t}"`)));
}

/** The tables of the public schema that no entity maps (TypeORM's own bookkeeping excluded). */
export async function tablesWithoutEntity(dataSource: DataSource): Promise<string[]> {
  const rows: Array<{ table_name: string }> = await dataSource.query(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const mapped = new Set(dataSource.entityMetadatas.map((m) => m.tableName));
  return rows.map((r) => r.table_name).filter((t) => t !== "migrations" && !mapped.has(t));
}
