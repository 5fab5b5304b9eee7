import { setTimeout as sleep } from "node:timers/promises";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { HealthCheckResponse_ServingStatus as Status, type Health } from "../../gen/grpc/health/v1/health_pb.js";

export interface HealthOptions {
  /** Whether the server can do its work now: the database answers, and Redis when it holds the rate limits (src/readiness.ts). */
  isHealthy: () => Promise<boolean>;
  /** The services a caller may name; "" (the server as a whole) is always known. */
  services: readonly string[];
  /** Aborted when the server starts to shut down: from then on everything is NOT_SERVING. */
  shutdown: AbortSignal;
  /** How often a watched status is read again. */
  watchIntervalMs?: number;
}

/** Often enough for a load balancer to stop sending within seconds of an outage; one query per tick for all watchers. */
export const WATCH_INTERVAL_MS = 2000;

/**
 * grpc.health.v1.Health as its proto documents it (grpc/health/v1/health.proto): Check and
 * List answer the status now, Watch sends the status at once and then each change. Every
 * known service shares the server's status, since each needs the database. An unknown name is
 * NOT_FOUND on Check; on Watch it is SERVICE_UNKNOWN and the call stays open, as the protocol
 * asks (clients treat a stream that ends as a reason to reconnect, not as an answer).
 */
export function healthHandlers(options: HealthOptions): ServiceImpl<typeof Health> {
  const known = new Set(["", ...options.services]);
  const interval = options.watchIntervalMs ?? WATCH_INTERVAL_MS;
  const statusNow = async (): Promise<Status> =>
    !options.shutdown.aborted && (await options.isHealthy()) ? Status.SERVING : Status.NOT_SERVING;
  const nextRead = sharedTicks(interval, statusNow);

  return {
    async check(request) {
      if (!known.has(request.service)) throw new ConnectError(`unknown service ${request.service}`, Code.NotFound);
      return { status: await statusNow() };
    },

    async list() {
      const status = await statusNow();
      return { statuses: Object.fromEntries([...known].map((name) => [name, { status }])) };
    },

    async *watch(request, context: HandlerContext) {
      const ended = AbortSignal.any([context.signal, options.shutdown]);
      if (!known.has(request.service)) {
        yield { status: Status.SERVICE_UNKNOWN };
        await untilAborted(ended);
        return;
      }
      let last = await statusNow();
      yield { status: last };
      const end = untilAborted(ended).then(() => undefined);
      for (;;) {
        const status = await Promise.race([nextRead(), end]);
        if (status === undefined) break;
        if (status !== last) yield { status };
        last = status;
      }
      // On shutdown the last word is NOT_SERVING, then the stream ends and the client looks elsewhere.
      if (options.shutdown.aborted && !context.signal.aborted && last !== Status.NOT_SERVING)
        yield { status: Status.NOT_SERVING };
    },
  };
}

/** One read every `ms` while anyone waits, shared by all who wait for it. */
function sharedTicks<T>(ms: number, read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= sleep(ms, undefined, { ref: false })
      .then(read)
      .finally(() => (pending = undefined)));
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
