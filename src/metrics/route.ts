import cluster from "node:cluster";
import { createHash, timingSafeEqual } from "node:crypto";
import type { FlowDeps } from "../flows/deps.js";
import { writeReasonError } from "../transport/error-body.js";
import type { PlainRoute } from "../transport/http-handler.js";
import { answerPrimary, clusterScrape } from "./cluster.js";
import { collectProcessMetrics, registry } from "./registry.js";
import { watchState } from "./state.js";

export const METRICS_PATH = "/metrics";

export interface MetricsRoute {
  route: PlainRoute;
  /** Stops reporting this server's outbox, pool and cache (the process's counters stay). */
  close(): void;
}

/**
 * GET /metrics in Prometheus's text format: this process's metrics, or in a cluster worker
 * the whole cluster's (cluster.ts). With METRICS_TOKEN set, only for `Authorization: Bearer
 * <token>`; the comparison is of SHA-256 digests in constant time, so neither the token's
 * content nor its length leaks through timing.
 */
export function metricsRoute(deps: FlowDeps): MetricsRoute {
  collectProcessMetrics();
  answerPrimary();
  const unwatch = watchState(deps);
  const expected = deps.config.metricsToken === undefined ? undefined : digest(deps.config.metricsToken);
  const route: PlainRoute = async (req, res, record) => {
    if (expected) {
      const header = req.headers.authorization;
      if (header === undefined) {
        res.setHeader("www-authenticate", 'Bearer realm="metrics"');
        return writeReasonError(
          res,
          record.id,
          "MISSING_METRICS_TOKEN",
          "send the metrics token (METRICS_TOKEN) in Authorization: Bearer",
        );
      }
      const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
      if (token === undefined || !timingSafeEqual(digest(token), expected)) {
        res.setHeader("www-authenticate", 'Bearer realm="metrics", error="invalid_token"');
        return writeReasonError(
          res,
          record.id,
          "INVALID_METRICS_TOKEN",
          "the metrics token is not the one in METRICS_TOKEN",
        );
      }
    }
    let text: string;
    try {
      text = cluster.isWorker ? await clusterScrape() : await registry.metrics();
    } catch (error) {
      deps.logger.warn({ err: error }, "metrics scrape failed");
      return writeReasonError(res, record.id, "SERVICE_UNAVAILABLE", "the metrics could not be gathered; try again");
    }
    res.writeHead(200, { "content-type": registry.contentType, "content-length": Buffer.byteLength(text) });
    res.end(text);
  };
  return { route, close: unwatch };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
