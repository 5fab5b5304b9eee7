import pg from "pg";
import type { Logger } from "pino";
import { clientTimeouts, dropSocket } from "./db-timeouts.js";
import { CHANGE_CHANNEL } from "./migrations/1732900000000-change-feed.js";

export type ChangeKind = "projects" | "api_keys" | "signing_keys" | "revoked" | "sessions" | "users";

/** One row changed (`id`), or every row of the project (`id` "*"); see the change-feed migration. */
export interface Change {
  kind: ChangeKind;
  projectId: string;
  id: string;
  /** revoked: the token's expiry, epoch seconds. */
  expiresAt?: number;
}

export interface ChangeSubscriber {
  change(change: Change): void;
  /** Notices may have been missed (the feed went down or came back): forget everything. */
  reset(): void;
}

/**
 * The database's announcements of changes to what verification reads (the change-feed
 * migration's triggers). Caches may serve answers only while `live`: every change committed
 * since they were filled has then reached this process.
 *
 * Two paths deliver a notice:
 * - Every pooled connection LISTENs, and PostgreSQL hands a session its own notices at commit,
 *   before the COMMIT returns: a write on this instance has cleared this instance's caches
 *   before the flow that made it answers.
 * - One dedicated connection (PostgreSQL only) LISTENs for every other instance's writes, which
 *   PostgreSQL signals to listeners at commit, before the writer's COMMIT returns. A heartbeat
 *   checks that connection; while it is down the feed is not live and caches are bypassed.
 *   A connection that goes silent is found by the next heartbeat that goes unanswered, so a
 *   partition leaves caches stale for at most heartbeatMs + the query timeout (1.6 s by
 *   default); a failing pooled connection takes the listener down at once (suspect).
 *
 * Embedded PGlite has one connection and one process: the pooled path alone is complete.
 */
export interface ChangeFeed {
  readonly live: boolean;
  subscribe(subscriber: ChangeSubscriber): void;
  /** For the pool: make a new connection listen and report here. */
  attach(client: pg.Client): void;
  /**
   * For the pool: one of its connections failed. The listener may be as dead without knowing
   * it yet, so it is replaced (the caches are bypassed until its successor listens).
   */
  suspect(error: unknown): void;
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface ChangeFeedOptions {
  /** PostgreSQL URL for the dedicated listener; absent (PGlite) means the pool alone. */
  databaseUrl?: string;
  logger: Logger;
  /** How often the listener is checked (default 500 ms). */
  heartbeatMs?: number;
  /** Bounds on the listener's connection and queries (db-timeouts.ts; default 1000 ms). */
  timeoutMs?: number;
}

const KINDS = new Set<ChangeKind>(["projects", "api_keys", "signing_keys", "revoked", "sessions", "users"]);

export function parseChange(payload: string): Change | undefined {
  const [kind, projectId, id, extra] = payload.split(":");
  if (!KINDS.has(kind as ChangeKind) || !projectId || !id) return undefined;
  const change: Change = { kind: kind as ChangeKind, projectId, id };
  if (extra !== undefined) change.expiresAt = Number(extra);
  return change;
}

export function createChangeFeed(opts: ChangeFeedOptions): ChangeFeed {
  const subscribers: ChangeSubscriber[] = [];
  const heartbeatMs = opts.heartbeatMs ?? 500;
  const timeoutMs = opts.timeoutMs ?? 1_000;
  let listener: pg.Client | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let backoffMs = 250;
  let closed = false;
  // PGlite: the pool is the whole story, so the feed is live from the start.
  let live = opts.databaseUrl === undefined;

  const deliver = (message: pg.Notification) => {
    if (message.channel !== CHANGE_CHANNEL || message.payload === undefined) return;
    const change = parseChange(message.payload);
    if (!change) return;
    for (const s of subscribers) s.change(change);
  };
  const reset = () => {
    for (const s of subscribers) s.reset();
  };

  // `client`: the listener that failed; a late failure of a replaced listener changes nothing.
  const down = (client: pg.Client, reason: string, error?: unknown) => {
    if (client !== listener) return;
    const wasLive = live;
    live = false;
    reset();
    clearInterval(heartbeat);
    listener = undefined;
    void release(client, timeoutMs);
    if (wasLive)
      opts.logger.warn({ reason, err: error }, "change feed down: verification reads the database until it is back");
    if (!closed) {
      retry = setTimeout(() => void connect(), backoffMs);
      backoffMs = Math.min(backoffMs * 2, 2_000);
    }
  };

  const connect = async () => {
    if (closed || opts.databaseUrl === undefined) return;
    const client = new pg.Client({
      connectionString: opts.databaseUrl,
      application_name: "gatehouse-change-feed",
      ...clientTimeouts(timeoutMs),
    });
    listener = client;
    client.on("notification", deliver);
    client.on("error", (error) => down(client, "listener connection error", error));
    client.on("end", () => down(client, "listener connection ended"));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      down(client, "listener could not connect", error);
      return;
    }
    if (closed || listener !== client) return;
    // Whatever was cached before this moment may have missed a notice.
    reset();
    live = true;
    backoffMs = 250;
    opts.logger.info("change feed live");
    // An unanswered heartbeat fails by the client's query timeout.
    heartbeat = setInterval(() => {
      client.query("SELECT 1").catch((error: unknown) => down(client, "listener heartbeat failed", error));
    }, heartbeatMs);
    heartbeat.unref();
  };

  return {
    get live() {
      return live;
    },
    subscribe(subscriber) {
      subscribers.push(subscriber);
    },
    attach(client) {
      client.on("notification", deliver);
      // Queued before any query the pool's borrower sends, so it runs first.
      client
        .query(`LISTEN ${CHANGE_CHANNEL}`)
        .catch((error: unknown) => opts.logger.warn({ err: error }, "LISTEN failed on a pooled connection"));
      // PGlite's only connection came back: anything cached may predate a missed notice.
      if (opts.databaseUrl === undefined) reset();
    },
    suspect(error) {
      if (listener) down(listener, "a pooled connection failed", error);
    },
    async start() {
      if (opts.databaseUrl === undefined) return;
      await connect();
    },
    async close() {
      closed = true;
      live = false;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const client = listener;
      listener = undefined;
      if (client) await release(client, timeoutMs);
    },
  };
}

/**
 * Ends a listener connection that is no longer wanted; its late errors are nobody's concern.
 * A connection into a partition never hears its goodbye answered: past `timeoutMs` the socket
 * is dropped.
 */
async function release(client: pg.Client, timeoutMs = 1_000): Promise<void> {
  client.removeAllListeners();
  client.on("error", () => {});
  let timer: NodeJS.Timeout | undefined;
  const ended = client.end().catch(() => {});
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), timeoutMs)));
  if ((await Promise.race([ended, late])) === "late") dropSocket(client);
  clearTimeout(timer);
}
