import { collectDefaultMetrics, Counter, Gauge, Registry } from "prom-client";

// One registry per process, for the life of the process: metrics count from start, and the
// counters are bumped from anywhere (the transport, the sign-in flows) without a handle.
// Labels are bounded sets only: RPC names, protocols, code names, methods, reasons; never a
// user, a project or a path with an id in it.
export const registry = new Registry();

export const signIns = new Counter({
  name: "gatehouse_sign_ins_total",
  help: "End-user sign-in attempts by method (password, otp, magic_link, sso, passkey, mfa) and outcome: succeeded, mfa_required, or the failure's reason in lower case (invalid_credentials, rate_limited, …).",
  labelNames: ["method", "outcome"] as const,
  registers: [registry],
});

/** 1 per process: in a cluster's scrape, how many workers the numbers add up. */
export const processes = new Gauge({
  name: "gatehouse_processes",
  help: "Processes whose metrics this scrape adds up (the workers of a cluster; 1 otherwise).",
  registers: [registry],
});
processes.set(1);

/**
 * prom-client's default gauges whose names end in `_total`, which Prometheus reserves for
 * counters (`promtool check metrics` refuses them). Each is the sum of the per-`type` gauge
 * beside it (`nodejs_active_handles{type="Socket"}` …), so dropping it loses nothing:
 * `sum without (type) (nodejs_active_handles)` is the same number (docs/metrics.md).
 */
export const DROPPED_DEFAULT_METRICS = [
  "nodejs_active_handles_total",
  "nodejs_active_requests_total",
  "nodejs_active_resources_total",
];

let processMetrics = false;

/** Node's process metrics (CPU, memory, event loop lag, GC), from the first server on. */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
  for (const name of DROPPED_DEFAULT_METRICS) registry.removeSingleMetric(name);
}
