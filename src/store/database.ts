import "reflect-metadata";
import { join } from "node:path";
import type { Logger } from "pino";
import pg from "pg";
import { DataSource } from "typeorm";
import { createChangeFeed, type ChangeFeed } from "./change-feed.js";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres.js";
import { entities } from "./entities/index.js";
import { typeormLogger } from "./logger.js";
import { migrations } from "./migrations/index.js";
import { createRepositories, type Clock, type Repositories } from "./repositories/index.js";

export type { Repositories } from "./repositories/index.js";

export interface OpenDatabaseOptions {
  /** PostgreSQL URL; absent means embedded PGlite in `${dataDir}/pglite`. */
  databaseUrl?: string;
  dataDir: string;
  logger: Logger;
  /** Connections to PostgreSQL (default 10). PGlite always uses exactly one. */
  poolSize?: number;
  clock?: Clock;
}

export interface Database {
  dataSource: DataSource;
  kind: "postgres" | "pglite";
  /**
   * Runs `work` in one transaction with repositories bound to it. Inside `work`, use only these
   * repositories: on PGlite the pool has one connection, held by the transaction, so a query
   * through `db.repos` would wait for it forever.
   */
  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
  /** Bound to the data source's manager: one statement, one implicit transaction. */
  repos: Repositories;
  /** Changes to what verification caches, announced by the database (store/change-feed.ts). */
  changes: ChangeFeed;
  close(): Promise<void>;
}

/** Connects and applies pending migrations (never synchronize). */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  const changes = createChangeFeed({ databaseUrl: opts.databaseUrl, logger: opts.logger });
  const { dataSource, embedded, kind } = await connect(opts, changes);
  try {
    await migrate(dataSource, opts.logger);
    // After the migrations: the triggers that notify exist from here on.
    await changes.start();
  } catch (err) {
    await changes.close();
    await shutdown(dataSource, embedded);
    throw err;
  }
  return {
    dataSource,
    kind,
    repos: createRepositories(dataSource.manager, opts.clock),
    transaction: (work) => dataSource.transaction((manager) => work(createRepositories(manager, opts.clock))),
    changes,
    async close() {
      await changes.close();
      await shutdown(dataSource, embedded);
    },
  };
}

/** For `npm run migrate`: applies pending migrations, closes, and returns the names applied. */
export async function runMigrationsOnly(opts: OpenDatabaseOptions): Promise<string[]> {
  const { dataSource, embedded } = await connect(opts);
  try {
    return await migrate(dataSource, opts.logger);
  } finally {
    await shutdown(dataSource, embedded);
  }
}

async function connect(opts: OpenDatabaseOptions, changes?: ChangeFeed) {
  const embedded = opts.databaseUrl ? null : await startEmbeddedPostgres(join(opts.dataDir, "pglite"));
  const dataSource = new DataSource({
    type: "postgres",
    url: opts.databaseUrl ?? embedded!.url,
    entities,
    migrations,
    migrationsTransactionMode: "each",
    synchronize: false,
    // The schema needs no extensions, and PGlite has few to offer.
    installExtensions: false,
    poolSize: embedded ? 1 : (opts.poolSize ?? 10),
    // An idle PGlite connection is never closed: the server takes one connection, and a
    // reconnect could arrive before it has forgotten the old one.
    extra: embedded ? { idleTimeoutMillis: 0 } : undefined,
    // On PGlite, a query through db.repos inside db.transaction() waits for the one connection
    // the transaction holds; fail it loudly instead of hanging forever.
    connectTimeoutMS: embedded ? 20_000 : undefined,
    logger: typeormLogger(opts.logger),
    // Every pooled connection listens for changes from the moment it exists (change-feed.ts).
    driver: changes ? listeningDriver(changes) : undefined,
  });
  try {
    await dataSource.initialize();
  } catch (err) {
    await embedded?.close();
    throw err;
  }
  const kind: Database["kind"] = embedded ? "pglite" : "postgres";
  opts.logger.info({ kind }, "database connected");
  return { dataSource, embedded, kind };
}

/** The pg module with a Pool that hands each new connection to the change feed. */
function listeningDriver(changes: ChangeFeed): typeof pg {
  class ListeningPool extends pg.Pool {
    constructor(config?: pg.PoolConfig) {
      super(config);
      this.on("connect", (client) => changes.attach(client));
    }
  }
  return Object.assign(Object.create(pg) as typeof pg, { Pool: ListeningPool });
}

async function migrate(dataSource: DataSource, logger: Logger): Promise<string[]> {
  const applied = await dataSource.runMigrations({ transaction: "each" });
  const names = applied.map((m) => m.name);
  if (names.length > 0) logger.info({ migrations: names }, "migrations applied");
  return names;
}

async function shutdown(dataSource: DataSource, embedded: EmbeddedPostgres | null): Promise<void> {
  try {
    if (dataSource.isInitialized) await dataSource.destroy();
  } finally {
    await embedded?.close();
  }
}
