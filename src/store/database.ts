import "reflect-metadata";
import type { Logger } from "pino";
import pg from "pg";
import { DataSource } from "typeorm";
import { createChangeFeed, type ChangeFeed } from "./change-feed.js";
import { dropOnReadTimeout, dropSocket, poolTimeouts } from "./db-timeouts.js";
import { startEmbeddedPostgres, type EmbeddedHolder, type EmbeddedPostgres } from "./embedded-postgres.js";
import { entities } from "./entities/index.js";
import { typeormLogger } from "./logger.js";
import { migrations } from "./migrations/index.js";
import { afterCommitQueue, afterEachStatement, type AfterCommit } from "./after-commit.js";
import { createRepositories, type Clock, type Repositories as BoundRepositories } from "./repositories/index.js";

/** Every repository, bound to a transaction or to the data source, and what must wait for its commit. */
export type Repositories = BoundRepositories & AfterCommit;

export interface OpenDatabaseOptions {
  /** PostgreSQL URL; absent means embedded PGlite in `${dataDir}/pglite`. */
  databaseUrl?: string;
  dataDir: string;
  logger: Logger;
  /** Connections to PostgreSQL (default 10). PGlite always uses exactly one. */
  poolSize?: number;
  /**
   * PostgreSQL only: the bound on each wait for the database (connecting, a free connection,
   * one statement); see db-timeouts.ts. Default 1000 ms.
   */
  timeoutMs?: number;
  clock?: Clock;
  /** PGlite only: who takes the data directory's lock (data-dir-lock.ts); default a command. */
  holder?: EmbeddedHolder;
}

const DEFAULT_TIMEOUT_MS = 1000;

export interface Database {
  dataSource: DataSource;
  kind: "postgres" | "pglite";
  /**
   * Runs `work` in one transaction with repositories bound to it. Inside `work`, use only these
   * repositories: on PGlite the pool has one connection, held by the transaction, so a query
   * through `db.repos` would wait for it forever. Work registered with `repos.afterCommit` runs
   * after COMMIT, before this resolves; a rollback drops it.
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
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // A migration may rightly run longer than any request should wait: on PostgreSQL it runs on
  // its own connection without the timeouts, before the serving pool opens. (PGlite's socket
  // server takes one connection at a time, so there the one data source migrates.)
  if (opts.databaseUrl) await runMigrationsOnly(opts);
  const changes = createChangeFeed({ databaseUrl: opts.databaseUrl, logger: opts.logger, timeoutMs });
  const pooled = new Set<pg.Client>();
  const { dataSource, embedded, kind } = await connect(opts, { changes, timeoutMs, pooled });
  try {
    if (embedded) {
      await migrate(dataSource, opts.logger);
      await embedded.keepPrivate();
    }
    // After the migrations: the triggers that notify exist from here on.
    await changes.start();
  } catch (err) {
    await changes.close();
    await shutdown(dataSource, embedded, pooled);
    throw err;
  }
  return {
    dataSource,
    kind,
    repos: { ...createRepositories(dataSource.manager, opts.clock), ...afterEachStatement(opts.logger) },
    async transaction(work) {
      // A transaction that throws has rolled back: its tasks are never run.
      const pending = afterCommitQueue(opts.logger);
      const result = await dataSource.transaction((manager) =>
        work({ ...createRepositories(manager, opts.clock), afterCommit: pending.afterCommit }),
      );
      await pending.committed();
      return result;
    },
    changes,
    async close() {
      // Side by side: each is bounded by the timeout when the database does not answer.
      await Promise.all([
        changes.close(),
        shutdown(dataSource, embedded, pooled, opts.databaseUrl ? timeoutMs : undefined),
      ]);
    },
  };
}

/**
 * For `npm run migrate`, and each start on PostgreSQL: applies pending migrations, closes, and
 * returns the names applied. On PostgreSQL under the migrations' advisory lock, so instances
 * starting together take turns: the first applies them, the others find nothing to do.
 */
export async function runMigrationsOnly(opts: OpenDatabaseOptions): Promise<string[]> {
  const { dataSource, embedded } = await connect(opts);
  try {
    if (embedded) return await migrate(dataSource, opts.logger);
    return await underMigrationLock(dataSource, opts.logger, () => migrate(dataSource, opts.logger));
  } finally {
    await shutdown(dataSource, embedded, new Set());
  }
}

// Gatehouse's statements are short and indexed; PostgreSQL's JIT compiles a plan whose estimated
// cost passes jit_above_cost, as a ListUsers search of a project with millions of users does,
// and the compiling took 100–280 ms of a search that ran in about 100 ms without it
// (docs/benchmarks.md, ListUsers search). Off for the serving connections.
const SESSION_OPTIONS = "-c jit=off";

/**
 * `serving`: the pool that serves requests (bounded waits, listening connections), whose open
 * connections are kept in `pooled`.
 */
async function connect(
  opts: OpenDatabaseOptions,
  serving?: { changes: ChangeFeed; timeoutMs: number; pooled: Set<pg.Client> },
) {
  const embedded = opts.databaseUrl ? null : await startEmbeddedPostgres(opts.dataDir, opts.holder, opts.logger);
  const dataSource = new DataSource({
    type: "postgres",
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- embedded is started exactly when there is no databaseUrl
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
    extra: embedded
      ? { idleTimeoutMillis: 0 }
      : serving
        ? { ...poolTimeouts(serving.timeoutMs), options: SESSION_OPTIONS }
        : undefined,
    // On PGlite, a query through db.repos inside db.transaction() waits for the one connection
    // the transaction holds; fail it loudly instead of hanging forever.
    // On PostgreSQL a connection that cannot be made in time fails (the serving pool bounds
    // every other wait as well: db-timeouts.ts).
    connectTimeoutMS: embedded ? 20_000 : (opts.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    logger: typeormLogger(opts.logger),
    // Every pooled connection listens for changes from the moment it exists (change-feed.ts).
    driver: serving ? listeningDriver(serving.changes, serving.pooled) : undefined,
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

/**
 * The pg module with a Pool that hands each new connection to the change feed and keeps it in
 * `pooled` until the pool removes it: the pool's own list is private to pg-pool, and shutting
 * down must be able to drop every connection (shutdown).
 */
function listeningDriver(changes: ChangeFeed, pooled: Set<pg.Client>): typeof pg {
  class ListeningPool extends pg.Pool {
    constructor(config?: pg.PoolConfig) {
      super(config);
      this.on("remove", (client) => pooled.delete(client));
      this.on("connect", (client) => {
        pooled.add(client);
        dropOnReadTimeout(client);
        // A connection that fails may mean the listener's has too, unseen so far: fail closed.
        client.on("error", (error) => changes.suspect(error));
        changes.attach(client);
      });
    }
  }
  return Object.assign(Object.create(pg) as typeof pg, { Pool: ListeningPool });
}

/**
 * The key of the session-level advisory lock that serialises migrations on one database
 * ("gatehous" in ASCII). Without it, instances starting together on a fresh database each ran
 * the migrations, and all but one failed on the catalog's unique index (`duplicate key value
 * violates unique constraint "pg_class_relname_nsp_index"`, issue 46).
 */
const MIGRATION_LOCK = "7449362536530064755";

/**
 * Runs `work` holding the migration lock on a connection of its own. The lock is the session's:
 * should this process die, PostgreSQL ends the session and releases it. The wait for it is not
 * bounded: it lasts as long as another instance's migrations, which may rightly be long.
 */
async function underMigrationLock<T>(dataSource: DataSource, logger: Logger, work: () => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    const [{ locked }] = (await runner.query(`SELECT pg_try_advisory_lock(${MIGRATION_LOCK}) AS locked`)) as Array<{
      locked: boolean;
    }>;
    if (!locked) {
      logger.info("waiting for another instance's migrations");
      await runner.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    }
    try {
      return await work();
    } finally {
      await runner.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => {});
    }
  } finally {
    await runner.release();
  }
}

async function migrate(dataSource: DataSource, logger: Logger): Promise<string[]> {
  const applied = await dataSource.runMigrations({ transaction: "each" });
  const names = applied.map((m) => m.name);
  if (names.length > 0) logger.info({ migrations: names }, "migrations applied");
  return names;
}

/**
 * `timeoutMs`: how long to wait for the pool to close politely. A connection into a partition
 * never hears back from its goodbye, and shutting down must not wait for it: past the bound
 * the pool's sockets are dropped.
 */
async function shutdown(
  dataSource: DataSource,
  embedded: EmbeddedPostgres | null,
  pooled: ReadonlySet<pg.Client>,
  timeoutMs?: number,
): Promise<void> {
  try {
    if (!dataSource.isInitialized) return;
    const destroyed = dataSource.destroy();
    if (timeoutMs === undefined) return await destroyed;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), timeoutMs)));
    const outcome = await Promise.race([destroyed, late]);
    clearTimeout(timer);
    if (outcome === "late") {
      destroyed.catch(() => {});
      for (const client of pooled) dropSocket(client);
    }
  } finally {
    await embedded?.close();
  }
}
