import cluster from "node:cluster";
import { AggregatorRegistry } from "prom-client";
import type { Logger } from "../log.js";
import { registry } from "./registry.js";

// With WORKERS > 1 the workers share the port, so a scrape lands on any one of them, and the
// primary serves no HTTP at all. The worker that got the scrape asks the primary over the
// cluster's IPC channel; the primary asks every worker for its registry (as JSON), adds them
// up with prom-client's AggregatorRegistry.aggregate (counters and histograms summed, each
// metric's `aggregator` otherwise) and sends the text back to the asking worker:
//
//   worker A ──SCRAPE──▶ primary ──COLLECT──▶ workers A, B, …
//   worker A ◀─SCRAPED── primary ◀─COLLECTED── workers A, B, …
//
// prom-client's own clusterMetrics() is the primary's half of this, but it waits on every
// forked worker, including one still starting, which answers nothing until it times out; here
// the primary asks only workers that said they are ready, and a worker that does not answer in
// time is left out of that scrape (gatehouse_processes says how many were added up).

const READY = "gatehouse:metrics-ready";
const SCRAPE = "gatehouse:metrics-scrape";
const SCRAPED = "gatehouse:metrics-scraped";
const COLLECT = "gatehouse:metrics-collect";
const COLLECTED = "gatehouse:metrics-collected";

/** How long the primary waits for the workers' registries. */
const COLLECT_TIMEOUT_MS = 2000;
/** How long a worker waits for the primary's aggregate: the collect, plus a margin. */
const SCRAPE_TIMEOUT_MS = COLLECT_TIMEOUT_MS + 1000;

interface Message {
  type?: string;
  id?: number;
  text?: string;
  metrics?: unknown[];
  error?: string;
}

let nextId = 0;
const scrapes = new Map<number, { resolve(text: string): void; reject(error: Error): void; timer: NodeJS.Timeout }>();
let answering = false;

/** In a worker: answer the primary's collects and its scrape replies, and tell it so. Idempotent. */
export function answerPrimary(): void {
  if (answering || !cluster.isWorker) return;
  answering = true;
  process.on("message", (message: Message) => {
    if (message?.type === COLLECT) {
      registry.getMetricsAsJSON().then(
        (metrics) => send({ type: COLLECTED, id: message.id, metrics }),
        (error: unknown) => send({ type: COLLECTED, id: message.id, error: String(error) }),
      );
    } else if (message?.type === SCRAPED && typeof message.id === "number") {
      const pending = scrapes.get(message.id);
      if (!pending) return;
      scrapes.delete(message.id);
      clearTimeout(pending.timer);
      if (typeof message.text === "string") pending.resolve(message.text);
      else pending.reject(new Error(message.error ?? "the primary sent no metrics"));
    }
  });
  send({ type: READY });
}

/** In a worker: the whole cluster's metrics in the text format, from the primary. */
export function clusterScrape(): Promise<string> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      scrapes.delete(id);
      reject(new Error("the cluster's primary did not answer the metrics scrape in time"));
    }, SCRAPE_TIMEOUT_MS);
    scrapes.set(id, { resolve, reject, timer });
    send({ type: SCRAPE, id });
  });
}

function send(message: Message): void {
  try {
    process.send?.(message);
  } catch {
    // The channel closed: the process is stopping, and the scrape times out.
  }
}

/** In the primary: answer the workers' scrapes with the aggregate of every ready worker. */
export function serveClusterMetrics(logger: Logger): void {
  const ready = new Set<number>();
  const collects = new Map<number, { answers: unknown[][]; waiting: Set<number>; done(): void }>();

  const collect = () =>
    new Promise<unknown[][]>((resolve) => {
      const id = nextId++;
      const answers: unknown[][] = [];
      const waiting = new Set<number>();
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        collects.delete(id);
        resolve(answers);
      };
      collects.set(id, { answers, waiting, done });
      for (const workerId of ready) {
        const worker = cluster.workers?.[workerId];
        if (!worker?.isConnected()) continue;
        try {
          worker.send({ type: COLLECT, id });
          waiting.add(workerId);
        } catch {
          // It is going away: left out.
        }
      }
      if (waiting.size === 0) return done();
      timer = setTimeout(() => {
        logger.warn(
          { workers: [...waiting] },
          "workers did not send their metrics in time; the scrape leaves them out",
        );
        done();
      }, COLLECT_TIMEOUT_MS);
    });

  cluster.on("message", (worker, message: Message) => {
    switch (message?.type) {
      case READY:
        ready.add(worker.id);
        return;
      case COLLECTED: {
        const pending = collects.get(message.id ?? -1);
        if (!pending || !pending.waiting.delete(worker.id)) return;
        if (Array.isArray(message.metrics)) pending.answers.push(message.metrics);
        if (pending.waiting.size === 0) pending.done();
        return;
      }
      case SCRAPE:
        collect()
          .then((answers) => AggregatorRegistry.aggregate(answers).metrics())
          .then(
            (text) => worker.send({ type: SCRAPED, id: message.id, text }),
            (error: unknown) => worker.send({ type: SCRAPED, id: message.id, error: String(error) }),
          )
          .catch(() => {
            // The asking worker went away.
          });
        return;
      default:
        // Not a message of ours: another module's, or none.
        return;
    }
  });
  cluster.on("exit", (worker) => {
    ready.delete(worker.id);
    for (const pending of collects.values()) {
      if (pending.waiting.delete(worker.id) && pending.waiting.size === 0) pending.done();
    }
  });
}
