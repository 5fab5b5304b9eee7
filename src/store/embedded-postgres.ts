import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export interface EmbeddedPostgres {
  /** postgres:// URL of the socket server, for the ordinary pg driver. */
  url: string;
  close(): Promise<void>;
}

/**
 * PGlite persisted in `dir`, spoken to over the PostgreSQL wire protocol on 127.0.0.1, so the
 * application runs the same pg driver and SQL as in production. PGlite is a single session:
 * the server takes one connection, and the pool in front of it must have size 1.
 *
 * Two processes must not open the same directory at once.
 */
export async function startEmbeddedPostgres(dir: string): Promise<EmbeddedPostgres> {
  await mkdir(dir, { recursive: true });
  // pg_trgm backs the user search index; PGlite ships it as a loadable module.
  const db = await PGlite.create({ dataDir: dir, extensions: { pg_trgm } });
  // Port 0: the server keeps a numeric port as given, and after listen() replaces it with the
  // bound one from server.address(), which getServerConn() then reports as "host:port".
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 1 });
  try {
    await server.start();
  } catch (err) {
    await db.close();
    throw err;
  }
  return {
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}
