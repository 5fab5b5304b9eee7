import type { Database } from "./database.js";
import { sql, statements } from "./sql/index.js";

/**
 * The readiness probe's question to the database (src/readiness.ts): whether a statement runs
 * now. A pooled connection of its own, like any statement outside a transaction; it rejects
 * when none answers.
 */
export async function databaseAnswers(db: Pick<Database, "dataSource">): Promise<void> {
  await statements(db.dataSource.manager).execute(sql`SELECT 1`);
}
