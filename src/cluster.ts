import cluster, { type Worker } from "node:cluster";
import { bootstrap, createDeps, shutdownBoundMs } from "./app.js";
import type { Config } from "./config.js";
import type { Logger } from "./log.js";
import { serveClusterMetrics } from "./metrics/cluster.js";

// The primary of a cluster (WORKERS > 1, PostgreSQL only): it prepares the database once, forks
// the workers that serve the shared port, replaces those that die and drains them all on SIGTERM.
// It serves no requests itself.

/** What a worker sends its primary once it listens (main.ts). */
export interface ListeningMessage {
  type: "gatehouse:listening";
  port: number;
}

// A worker dying at start-up (bad database, a bug on a hot path) would otherwise be forked forever.
const RESTART_LIMIT = 5;
const RESTART_WINDOW_MS = 10_000;
// Beyond each worker's own hard stop (shutdownBoundMs), so a worker's verdict arrives first.
const HARD_STOP_MARGIN_MS = 1500;

export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  const alive = new Set<Worker>();
  const listening = new Set<number>();
  const restarts: number[] = [];
  let started = false;
  let stopping = false;
  let exitCode = 0;

  const finish = () => {
    logger.info({ exit_code: exitCode }, "stopped");
    process.exit(exitCode);
  };

  const stop = (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    logger.info({ reason, workers: alive.size }, "shutting down");
    const hardStop = setTimeout(
      () => {
        logger.error({ workers: alive.size }, "workers took too long to stop; killing them and exiting");
        for (const worker of alive) worker.process.kill("SIGKILL");
        process.exit(1);
      },
      shutdownBoundMs(config) + HARD_STOP_MARGIN_MS,
    );
    hardStop.unref();
    // Each worker drains its own connections, as a single process does on SIGTERM.
    for (const worker of alive) worker.process.kill("SIGTERM");
    if (alive.size === 0) finish();
  };

  // Ctrl-C signals the whole process group; workers ignore SIGINT and wait for this SIGTERM.
  process.on("SIGTERM", () => stop("SIGTERM", 0));
  process.on("SIGINT", () => stop("SIGINT", 0));

  // Before any worker exists: migrations, the first organization and the generated secret key
  // are each made once, instead of raced by N processes.
  await prepareDatabase(config, logger);

  const fork = () => {
    const worker = cluster.fork();
    alive.add(worker);
    worker.on("error", (error) => logger.warn({ err: error, worker: worker.id }, "worker channel error"));
  };

  // A scrape of GET /metrics lands on one worker, which asks this process for every worker's.
  serveClusterMetrics(logger);

  cluster.on("message", (worker, message: ListeningMessage) => {
    if (message?.type !== "gatehouse:listening" || started || stopping) return;
    listening.add(worker.id);
    if (listening.size === config.workers) {
      started = true;
      logger.info({ workers: config.workers, port: message.port }, "cluster started");
    }
  });

  cluster.on("exit", (worker, code, signal) => {
    alive.delete(worker);
    listening.delete(worker.id);
    const pid = worker.process.pid;
    if (stopping) {
      // A worker still starting has no handlers yet: the signal itself ends it, harmlessly.
      if (code !== 0 && signal !== "SIGTERM" && signal !== "SIGINT") {
        logger.warn({ worker: worker.id, pid, code, signal }, "worker did not stop cleanly");
        exitCode = 1;
      }
      if (alive.size === 0) finish();
      return;
    }
    const now = Date.now();
    while (restarts.length > 0 && restarts[0] <= now - RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length >= RESTART_LIMIT) {
      logger.error(
        { worker: worker.id, pid, code, signal, restarts: restarts.length, window_ms: RESTART_WINDOW_MS },
        "workers keep dying; stopping the cluster",
      );
      stop("crash loop", 1);
      return;
    }
    restarts.push(now);
    logger.warn({ worker: worker.id, pid, code, signal }, "worker died; starting a replacement");
    fork();
  });

  for (let i = 0; i < config.workers; i++) fork();
}

async function prepareDatabase(config: Config, logger: Logger): Promise<void> {
  const deps = await createDeps(config, { logger });
  try {
    await bootstrap(deps, config);
  } finally {
    // The mail service was never started: only the database holds anything open.
    await deps.db.close();
  }
}
