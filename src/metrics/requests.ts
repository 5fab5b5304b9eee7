import { Counter, type Metric } from "prom-client";
import { registry } from "./registry.js";

// Every request is counted here, VerifyToken's included, so the count is plain numbers on
// objects made once per label combination: two Map lookups and a few additions a request, no
// allocation (prom-client's own inc and observe cost about 2.4 µs together: a label hash string,
// a closure, a timestamp). prom-client reads the numbers when a scrape asks.

/** Upper bounds in seconds: from a cached VerifyToken (well under a millisecond) to an argon2 sign-in queued behind others. */
const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  labels: { rpc: string; protocol: string };
  /** Observations per bucket, not cumulative; the last one is past every bound. */
  buckets: number[];
  sum: number;
  count: number;
  codes: Map<string, { labels: { rpc: string; protocol: string; code: string }; count: number }>;
}

const series = new Map<string, Map<string, Series>>();
const limited = new Map<string, { labels: { rpc: string }; count: number }>();

/**
 * Counts one finished request, as its access log line names it. `rpc` is the RPC's
 * `Service/Method`, or undefined for plain HTTP routes and paths that matched nothing (those are
 * counted as `none`: a path may hold ids, and anyone can send any path).
 */
export function observeRequest(
  rpc: string | undefined,
  protocol: string,
  code: string,
  reason: string | undefined,
  seconds: number,
): void {
  const name = rpc ?? "none";
  const s = seriesOf(name, protocol);
  let byCode = s.codes.get(code);
  if (!byCode) s.codes.set(code, (byCode = { labels: { rpc: name, protocol, code }, count: 0 }));
  byCode.count++;
  let bucket = 0;
  while (bucket < BOUNDS.length && seconds > BOUNDS[bucket]) bucket++;
  s.buckets[bucket]++;
  s.sum += seconds;
  s.count++;
  if (reason === "RATE_LIMITED") {
    let refused = limited.get(name);
    if (!refused) limited.set(name, (refused = { labels: { rpc: name }, count: 0 }));
    refused.count++;
  }
}

function seriesOf(rpc: string, protocol: string): Series {
  let byProtocol = series.get(rpc);
  if (!byProtocol) series.set(rpc, (byProtocol = new Map<string, Series>()));
  let found = byProtocol.get(protocol);
  if (!found)
    byProtocol.set(
      protocol,
      (found = {
        labels: { rpc, protocol },
        buckets: new Array<number>(BOUNDS.length + 1).fill(0),
        sum: 0,
        count: 0,
        codes: new Map(),
      }),
    );
  return found;
}

function* allSeries(): Iterable<Series> {
  for (const byProtocol of series.values()) yield* byProtocol.values();
}

new Counter({
  name: "gatehouse_requests_total",
  help: "Requests answered, by RPC (`none` for plain HTTP routes and unknown paths), protocol (grpc, grpc-web, connect, rest, http) and code (ok, a status code name, http_<status>, grpc_<n>, or aborted).",
  labelNames: ["rpc", "protocol", "code"] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const s of allSeries()) for (const byCode of s.codes.values()) this.inc(byCode.labels, byCode.count);
  },
});

new Counter({
  name: "gatehouse_rate_limited_total",
  help: "Requests refused by a rate limit (RESOURCE_EXHAUSTED RATE_LIMITED), by RPC.",
  labelNames: ["rpc"] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const refused of limited.values()) this.inc(refused.labels, refused.count);
  },
});

const DURATION = "gatehouse_request_duration_seconds";

// A histogram prom-client formats and aggregates like its own: the JSON its Histogram.get() makes
// (cumulative `_bucket` lines by `le`, then `_sum` and `_count`), from the counts above.
const duration = {
  name: DURATION,
  help: "Time from a request's arrival to the end of its answer, by RPC and protocol.",
  type: "histogram",
  aggregator: "sum",
  async get() {
    const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
    for (const s of allSeries()) {
      let cumulative = 0;
      for (let i = 0; i <= BOUNDS.length; i++) {
        cumulative += s.buckets[i];
        values.push({
          labels: { ...s.labels, le: i < BOUNDS.length ? BOUNDS[i] : "+Inf" },
          value: cumulative,
          metricName: `${DURATION}_bucket`,
        });
      }
      values.push({ labels: s.labels, value: s.sum, metricName: `${DURATION}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${DURATION}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  },
  reset() {
    for (const s of allSeries()) {
      s.buckets.fill(0);
      s.sum = 0;
      s.count = 0;
    }
  },
};
registry.registerMetric(duration as unknown as Metric);
