import { DataSource } from "typeorm";
import { startEmbeddedPostgres } from "../../src/store/embedded-postgres.js";
import { migrations } from "../../src/store/migrations/index.js";
import type { TestDatabase } from "./database.js";

// For the tests of one migration: the schema as it stood before it, rows written as the code of
// that time wrote them, then the migration run (and undone) by TypeORM as the service runs it.

type Migration = (typeof migrations)[number];

/** The service's migrations up to and including the one named `name`. */
export function migrationsThrough(name: string): Migration[] {
  const upTo = migrations.findIndex((m) => m.name === name);
  if (upTo < 0) throw new Error(`migrationsThrough: no migration named ${name}`);
  return migrations.slice(0, upTo + 1);
}

/**
 * A DataSource on the (empty) test database with `list` as its migrations, none run yet, given
 * to `use` and closed after, with the embedded server it needed on PGlite.
 */
export async function withMigrationSource(
  t: TestDatabase,
  list: Migration[],
  use: (dataSource: DataSource) => Promise<void>,
): Promise<void> {
  const embedded = t.databaseUrl ? null : await startEmbeddedPostgres(t.dataDir);
  const dataSource = new DataSource({
    type: "postgres",
    url: t.databaseUrl ?? embedded!.url,
    migrations: list,
    migrationsTransactionMode: "each",
    installExtensions: false,
    poolSize: 1,
    extra: { idleTimeoutMillis: 0 },
  });
  try {
    await dataSource.initialize();
    await use(dataSource);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await embedded?.close();
  }
}
