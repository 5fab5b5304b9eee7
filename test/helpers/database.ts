import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { pino } from "pino";
import type { Clock } from "../../src/domain/clock.js";
import { openDatabase, type Database } from "../../src/store/database.js";

export interface TestDatabase {
  /** Set when DATABASE_URL is: a fresh database on that server. Absent means PGlite in dataDir. */
  databaseUrl?: string;
  dataDir: string;
  drop(): Promise<void>;
}

/**
 * A fresh database per call, so tests never see each other's rows. On PGlite it is a copy of a
 * migrated template (initdb costs seconds, a copy milliseconds);
 * `empty: true` skips the template, for tests of the migrations themselves; `embedded: true`
 * makes it PGlite even when the suite runs on PostgreSQL, for tests of the embedded database.
 */
export async function createTestDatabase(opts: { empty?: boolean; embedded?: boolean } = {}): Promise<TestDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), "gatehouse-test-"));
  const serverUrl = opts.embedded ? undefined : process.env.DATABASE_URL;
  if (!serverUrl) {
    if (!opts.empty) await cp(join(await pgliteTemplate(), "pglite"), join(dataDir, "pglite"), { recursive: true });
    return { dataDir, drop: () => rm(dataDir, { recursive: true, force: true }) };
  }
  // Letters and digits only: the name is spliced into DDL, which takes no parameters.
  const name = `gh_test_${randomBytes(6).toString("hex")}`;
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dataDir,
    async drop() {
      await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh database opened as the service opens it, for tests at the flow depth (no server);
 * `close` closes it and drops it.
 */
export async function openTestDatabase(clock?: Clock): Promise<{ db: Database; close(): Promise<void> }> {
  const testDb = await createTestDatabase();
  try {
    const db = await openDatabase({ ...testDb, logger: pino({ level: "silent" }), clock });
    return {
      db,
      async close() {
        await db.close();
        await testDb.drop();
      },
    };
  } catch (error) {
    await testDb.drop();
    throw error;
  }
}

let template: Promise<string> | undefined;

/**
 * A migrated, cleanly closed PGlite directory, shared by every test process and run. Its name
 * carries the PGlite version and the migrations' source, so a change to either builds a new one.
 */
function pgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const pkg = JSON.parse(
      await readFile(join(process.cwd(), "node_modules/@electric-sql/pglite/package.json"), "utf8"),
    );
    const hash = createHash("sha256").update(pkg.version);
    const migrationsDir = join(process.cwd(), "src/store/migrations");
    for (const file of (await readdir(migrationsDir)).sort())
      hash.update(file).update(await readFile(join(migrationsDir, file)));
    const key = hash.digest("hex");
    const dir = join(tmpdir(), `gatehouse-pglite-template-${key.slice(0, 16)}`);
    if (existsSync(join(dir, "pglite"))) return dir;
    const building = await mkdtemp(join(tmpdir(), "gatehouse-template-build-"));
    try {
      const db = await openDatabase({ dataDir: building, logger: pino({ level: "silent" }) });
      await db.close();
      // Built aside and renamed into place, so a concurrent process never copies a half-made one.
      await rename(building, dir);
    } catch (err) {
      await rm(building, { recursive: true, force: true });
      if (!existsSync(join(dir, "pglite"))) throw err; // else another process won the rename
    }
    return dir;
  })();
  return template;
}

async function admin(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
