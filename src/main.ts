// npm start preloads this with --require, which is what sizes the libuv pool (threadpool.ts);
// imported here for the size it found, and first, for a process started without the preload.
import { threadpool } from "./threadpool.js";
import cluster from "node:cluster";
import { shutdownBoundMs, startGatehouse } from "./app.js";
import { runPrimary, type ListeningMessage } from "./cluster.js";
import { ConfigError, loadConfig, type Config } from "./config.js";
import { createLogger, type Logger } from "./log.js";
import { PRIVATE_UMASK } from "./store/data-dir-modes.js";

// config → one process, or a cluster primary (cluster.ts) whose workers come back through here.
async function main(): Promise<void> {
  // Before anything is written: what this process creates (the embedded database, the key
  // file, the lock) is its account's alone (docs/security.md#files-on-disk).
  process.umask(PRIVATE_UMASK);
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`gatehouse: invalid configuration: ${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  // Set in a worker only: cluster.isWorker.
  if (cluster.worker) return serve(config, logger, cluster.worker.id);
  if (config.workers > 1 && config.databaseUrl) return runPrimary(config, logger);
  if (config.workers > 1) {
    logger.warn(
      { workers: config.workers },
      "WORKERS ignored: embedded PGlite is single-process (one session, one process per data directory); running one process. Set DATABASE_URL to run several",
    );
  }
  return serve(config, logger);
}

/** Listen, then graceful shutdown on SIGTERM/SIGINT. `worker` is the cluster worker id, if any. */
async function serve(config: Config, logger: Logger, worker?: number): Promise<void> {
  // A worker's Ctrl-C (sent to the whole process group) is its primary's to handle, from the
  // start: the primary answers with SIGTERM to every worker, so the cluster stops once, in order.
  if (worker !== undefined) process.on("SIGINT", () => {});
  const pool = threadpool();
  const gatehouse = await startGatehouse(config, {
    logger,
    skipBootstrap: worker !== undefined,
    // The pid tells the workers' lines apart (the logger's base fields omit it).
    listening: {
      ...(worker !== undefined && { worker, pid: process.pid }),
      threadpool: pool.size,
      threadpool_nice: pool.nice,
    },
  });
  if (worker !== undefined)
    process.send?.({ type: "gatehouse:listening", port: gatehouse.port } satisfies ListeningMessage);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    const delayMs = config.shutdownDelayMs;
    gatehouse.deps.logger.info({ signal, ...(delayMs > 0 && { delay_ms: delayMs }) }, "shutting down");
    // Out of rotation at once; with SHUTDOWN_DELAY_MS the port goes on accepting and answering
    // while load balancers notice, so no connection lands in a closed listener's backlog.
    gatehouse.unready();
    const hardStop = setTimeout(() => {
      gatehouse.deps.logger.error({ duration_ms: Date.now() - started }, "shutdown took too long; exiting");
      process.exit(1);
    }, shutdownBoundMs(config));
    hardStop.unref();
    delay(delayMs)
      .then(() => {
        if (delayMs > 0) gatehouse.deps.logger.info({ delay_ms: delayMs }, "draining");
        return gatehouse.close();
      })
      .then(
        () => {
          gatehouse.deps.logger.info({ duration_ms: Date.now() - started }, "stopped");
          process.exit(0);
        },
        (error: unknown) => {
          gatehouse.deps.logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  if (worker === undefined) process.on("SIGINT", () => stop("SIGINT"));
}

function delay(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

main().catch((error: unknown) => {
  // Found at start rather than in the environment: a key that does not open the stored secrets.
  if (error instanceof ConfigError) {
    process.stderr.write(`gatehouse: invalid configuration: ${error.message}\n`);
    process.exit(78); // EX_CONFIG
  }
  process.stderr.write(`gatehouse: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
