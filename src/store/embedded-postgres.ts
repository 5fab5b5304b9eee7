import { join } from "node:path";
import type { Logger } from "pino";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { acquireDataDirLock, type LockHolder } from "./data-dir-lock.js";
import { makePrivate } from "./data-dir-modes.js";

export interface EmbeddedPostgres {
  /** postgres:// URL of the socket server, for the ordinary pg driver. */
  url: string;
  /**
   * Takes group and other bits off the database's files again. PGlite's engine applies a umask
   * of its own (022) to the files it creates with fopen, so its relation-cache files come out
   * 0644, inside the private directory; done after the migrations and at close.
   */
  keepPrivate(): Promise<void>;
  close(): Promise<void>;
}

export interface EmbeddedHolder {
  role: LockHolder["role"];
  /** A server's operator channel, recorded in the lock for the CLI to find. */
  socket?: string;
}

/**
 * PGlite persisted in `${dataDir}/pglite`, spoken to over the PostgreSQL wire protocol on
 * 127.0.0.1, so the application runs the same pg driver and SQL as in production. PGlite is a
 * single session: the server takes one connection, and the pool in front of it must have size 1.
 *
 * Two processes must not open the same directory at once (each would keep its own copy, and the
 * last to close would overwrite the other's writes): the data directory's lock
 * (data-dir-lock.ts) is taken first and held until close, so a second opener is refused with
 * the holder's name. A command run while the server holds it goes through the server's operator
 * channel instead (cli/operator-channel-client.ts).
 *
 * The directory and everything in it are its owner's alone (data-dir-modes.ts): what an older
 * version left readable is repaired before the database opens, with one warning that counts it.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  holder: EmbeddedHolder = { role: "cli" },
  logger?: Logger,
): Promise<EmbeddedPostgres> {
  const lock = await acquireDataDirLock(dataDir, holder.role, holder.socket);
  let db: PGlite | undefined;
  try {
    const repaired = await makePrivate(dataDir);
    if (repaired > 0)
      logger?.warn(
        { data_dir: dataDir, repaired },
        "data directory permissions repaired: group and other access removed from its entries",
      );
    await makePrivate(join(dataDir, "pglite"));
    // pg_trgm backs the user search index; PGlite ships it as a loadable module.
    db = await PGlite.create({ dataDir: join(dataDir, "pglite"), extensions: { pg_trgm } });
    // A new database's files were unpacked 0666 (within the private directory, so never
    // reachable by others): made 0600 like the rest.
    const keepPrivate = async () => void (await makePrivate(join(dataDir, "pglite")));
    await keepPrivate();
    // Port 0: the server keeps a numeric port as given, and after listen() replaces it with the
    // bound one from server.address(), which getServerConn() then reports as "host:port".
    const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 1 });
    await server.start();
    const opened = db;
    return {
      url: `postgres://postgres@${server.getServerConn()}/postgres`,
      keepPrivate,
      async close() {
        try {
          await server.stop();
          await opened.close();
          await keepPrivate();
        } finally {
          await lock.release();
        }
      },
    };
  } catch (err) {
    await db?.close();
    await lock.release();
    throw err;
  }
}
