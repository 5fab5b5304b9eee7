import type pg from "pg";

// Every wait on PostgreSQL is bounded, so an unreachable database (refused, or a partition that
// drops packets without a word) answers SERVICE_UNAVAILABLE within about one timeout instead of
// holding the request, its memory and a pool slot for as long as TCP takes to give up (minutes).
//
// `timeoutMs` (DATABASE_TIMEOUT_MS) bounds each of:
// - opening a connection (TCP, TLS, authentication) and waiting for a free one from the pool:
//   pg-pool's connectionTimeoutMillis covers both;
// - one statement on the server (statement_timeout): a slow or locked query is cancelled there,
//   and the connection stays usable;
// - one query as the client sees it (query_timeout, a little longer, so the server's own
//   cancellation arrives first when the server is alive): when nothing comes back at all, the
//   connection is dropped (dropOnReadTimeout), since it can never be trusted again.

/** What the server's statement_timeout leaves for its answer to travel before the client gives up. */
const READ_MARGIN_MS = 100;
/**
 * A transaction left open by a client that vanished (a partition) holds its row locks until the
 * server ends it. Generous: flows may hash a password (argon2, queued under load) inside one.
 */
const IDLE_IN_TRANSACTION_MS = 60_000;
/** Idle pooled connections close after this; a dead one is found by TCP keepalive meanwhile. */
const IDLE_CONNECTION_MS = 10_000;
const KEEPALIVE_IDLE_MS = 10_000;

export function poolTimeouts(timeoutMs: number) {
  return {
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs + READ_MARGIN_MS,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
  } satisfies pg.PoolConfig;
}

/** The same bounds for a lone client (the change feed's listener). */
export function clientTimeouts(timeoutMs: number) {
  return {
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs + READ_MARGIN_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
  } satisfies pg.ClientConfig;
}

const READ_TIMEOUT = "Query read timeout";

/**
 * pg gives up on a query that gets no answer but keeps the connection, with the query still
 * its active one: every later query on it would wait behind an answer that may never come.
 * Destroying the socket makes the client emit "error", so the pool (or the borrower, through
 * TypeORM) discards it, and the next borrower gets a fresh connection.
 */
export function dropOnReadTimeout(client: pg.Client): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if (error instanceof Error && error.message === READ_TIMEOUT) dropSocket(client);
      });
    }
    return result;
  };
}

export function isReadTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === READ_TIMEOUT;
}

/**
 * Closes a connection without a goodbye, for one that will never hear back (a partition). pg
 * (8.23) has no such call: `end()` waits for the server to answer its Terminate message. Its
 * `connection.stream` is typed public (@types/pg), and destroying it makes the client emit
 * "error" and "end", which the pool and the change feed handle as a lost connection.
 */
export function dropSocket(client: pg.Client): void {
  client.connection.stream.destroy();
}
