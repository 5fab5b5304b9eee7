// Prints what TypeORM would change to make the database match the entities (schema-drift.ts),
// on a fresh migrated PGlite database (or DATABASE_URL's), optionally only for some tables:
//   npx tsx test/helpers/drift-probe.ts sessions users
import { pino } from "pino";
import { openDatabase } from "../../src/store/database.js";
import { createTestDatabase } from "./database.js";
import { schemaDrift, tablesWithoutEntity } from "./schema-drift.js";

const tables = process.argv.slice(2);
const testDb = await createTestDatabase();
const db = await openDatabase({
  databaseUrl: testDb.databaseUrl,
  dataDir: testDb.dataDir,
  logger: pino({ level: "silent" }),
});
try {
  const drift = await schemaDrift(db.dataSource, tables.length ? tables : undefined);
  for (const q of drift) console.log(q);
  console.log(
    `-- ${drift.length} statement(s); tables without an entity: ${(await tablesWithoutEntity(db.dataSource)).join(", ") || "none"}`,
  );
} finally {
  await db.close();
  await testDb.drop();
}
