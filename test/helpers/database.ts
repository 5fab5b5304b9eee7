import { createHash, randomBytes } from "node:crypto";
import type { Dirent } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import pg from "pg";
import { pino } from "pino";
import type { Clock } from "../../src/domain/clock.js";
import { openDatabase, type Database } from "../../src/store/database.js";
import { makePrivate } from "../../src/store/data-dir-modes.js";
import { madeOnce, scratchRoot } from "./scratch.js";

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
  const dataDir = await mkdtemp(join(scratchRoot(), `${TEST_DIR_PREFIX}${testRun()}-`));
  const serverUrl = opts.embedded ? undefined : process.env.DATABASE_URL;
  if (!serverUrl) {
    if (!opts.empty) await copyFolder(join(await pgliteTemplate(), "pglite"), join(dataDir, "pglite"));
    return { dataDir, drop: () => rm(dataDir, { recursive: true, force: true }) };
  }
  // Letters, digits and underscores only: the name is spliced into DDL, which takes no parameters.
  const name = `${TEST_DB_PREFIX}${testRun()}_${randomBytes(6).toString("hex")}`;
  const template = opts.empty ? "" : ` TEMPLATE ${await postgresTemplate(serverUrl)}`;
  await admin(serverUrl, `CREATE DATABASE ${name}${template}`);
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
 * Copies a folder of plain files and folders: the files all at once, each by copy_file_range.
 * Node's `cp` checks each entry several times over and took 210 ms of CPU for the 1,144 files of
 * a PGlite template; this takes 40.
 */
async function copyFolder(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  const target = (entry: Dirent) => join(to, relative(from, entry.parentPath), entry.name);
  const other = entries.find((entry) => !entry.isFile() && !entry.isDirectory());
  if (other) throw new Error(`copyFolder copies files and folders only: ${join(other.parentPath, other.name)}`);
  // Private, as the service keeps its data directory (store/data-dir-modes.ts); the files keep
  // the template's modes, which are private too (pgliteTemplate).
  await mkdir(to, { mode: 0o700 });
  // Parents before children: a folder's path sorts before everything inside it.
  for (const dir of entries
    .filter((entry) => entry.isDirectory())
    .map(target)
    .sort())
    await mkdir(dir, { mode: 0o700 });
  await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => copyFile(join(entry.parentPath, entry.name), target(entry))),
  );
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

/** Names of what this run makes, so the global teardown can drop what a worker left behind. */
const TEST_DB_PREFIX = "gh_test_";
const TEST_DIR_PREFIX = "gatehouse-test-";

/** The run's id: set once by test/global-setup.ts, so every worker of a run shares it. */
export function testRun(): string {
  process.env.GATEHOUSE_TEST_RUN ??= randomBytes(4).toString("hex");
  return process.env.GATEHOUSE_TEST_RUN;
}

/** Drops every database and data folder of the run `run` (a shared server's are never stopped). */
export async function dropRunDatabases(run: string): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const rows = (await adminRows(serverUrl, "SELECT datname FROM pg_database WHERE starts_with(datname, $1)", [
      `${TEST_DB_PREFIX}${run}_`,
    ])) as Array<{ datname: string }>;
    for (const { datname } of rows) await admin(serverUrl, `DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  }
  const prefix = `${TEST_DIR_PREFIX}${run}-`;
  for (const entry of await readdir(scratchRoot()))
    if (entry.startsWith(prefix)) await rm(join(scratchRoot(), entry), { recursive: true, force: true });
}

/** What a migrated template depends on: the migrations' source (and, for PGlite, its version). */
async function migrationsKey(extra = ""): Promise<string> {
  const hash = createHash("sha256").update(extra);
  const migrationsDir = join(process.cwd(), "src/store/migrations");
  for (const file of (await readdir(migrationsDir)).sort())
    hash.update(file).update(await readFile(join(migrationsDir, file)));
  return hash.digest("hex").slice(0, 16);
}

let pgliteBuilt: Promise<string> | undefined;
const PGLITE_TEMPLATE_PREFIX = "gatehouse-pglite-template-";

/**
 * A migrated, cleanly closed PGlite directory, shared by every test process and run. Its name
 * carries the PGlite version and the migrations' source, so a change to either builds a new one;
 * templates no run used for a day are removed.
 * test/global-setup.ts builds it before any worker starts.
 */
export function pgliteTemplate(): Promise<string> {
  pgliteBuilt ??= (async () => {
    const pkg = JSON.parse(
      await readFile(join(process.cwd(), "node_modules/@electric-sql/pglite/package.json"), "utf8"),
    );
    const key = await migrationsKey(pkg.version);
    const template = await madeOnce(scratchRoot(), PGLITE_TEMPLATE_PREFIX, key, "pglite", async (building) => {
      const db = await openDatabase({ dataDir: building, logger: pino({ level: "silent" }) });
      await db.close();
    });
    // A template made before the service kept its files private (0666 from PGlite's initdb)
    // would make every copy's first start repair and report them.
    await makePrivate(template);
    return template;
  })();
  return pgliteBuilt;
}

let postgresBuilt: Promise<string> | undefined;

/**
 * A migrated database on the server to copy with CREATE DATABASE … TEMPLATE (a file copy,
 * not 40 migrations per test database). Named by the migrations' source; built under another
 * name and renamed, so a concurrent run never copies a half-migrated one. Nobody stays
 * connected to it, which copying requires. test/global-setup.ts builds it before any worker.
 */
export function postgresTemplate(serverUrl: string): Promise<string> {
  postgresBuilt ??= (async () => {
    const name = `gh_template_${await migrationsKey()}`;
    const exists = async () =>
      (await adminRows(serverUrl, "SELECT 1 FROM pg_database WHERE datname = $1", [name])).length > 0;
    if (await exists()) return name;
    const building = `gh_template_build_${randomBytes(6).toString("hex")}`;
    await admin(serverUrl, `CREATE DATABASE ${building}`);
    try {
      const url = new URL(serverUrl);
      url.pathname = `/${building}`;
      const dataDir = await mkdtemp(join(scratchRoot(), "gatehouse-template-build-"));
      const db = await openDatabase({ databaseUrl: url.toString(), dataDir, logger: pino({ level: "silent" }) });
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
      await admin(serverUrl, `ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (err) {
      await admin(serverUrl, `DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      if (!(await exists())) throw err; // else a concurrent run made it first
    }
    return name;
  })();
  return postgresBuilt;
}

async function admin(serverUrl: string, sql: string): Promise<void> {
  await adminRows(serverUrl, sql);
}

async function adminRows(serverUrl: string, sql: string, values: unknown[] = []): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}
