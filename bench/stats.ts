import { readFileSync } from "node:fs";

/** One bounded run of one workload. */
export interface RunResult {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  rss_mb?: number;
  errors: number;
}

/** A run's result from its answered calls' latencies (ms, any order) over `elapsed` seconds. */
export function runResult(latencies: number[], elapsed: number, errors: number): RunResult {
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    p50_ms: percentile(latencies, 50),
    p99_ms: percentile(latencies, 99),
    errors,
  };
}

export interface Summary {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  rss_mb?: number;
  ratio?: number;
  /** [min, max] over the runs of each figure; the headline figures are medians. */
  range: { rps: [number, number]; p50_ms: [number, number]; p99_ms: [number, number]; rss_mb?: [number, number] };
  runs: number;
  /** req/s of each run, in order: runs measured in the same rounds pair up by index. */
  rps_runs: number[];
  errors: number;
  note?: string;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const span = (values: number[], digits = 2): [number, number] => [
  round(Math.min(...values), digits),
  round(Math.max(...values), digits),
];

export function summarize(runs: RunResult[]): Summary {
  const pick = (f: (r: RunResult) => number | undefined) => runs.map(f).filter((v): v is number => v !== undefined);
  const rss = pick((r) => r.rss_mb);
  return {
    rps: round(median(pick((r) => r.rps)), 0),
    p50_ms: round(median(pick((r) => r.p50_ms))),
    p99_ms: round(median(pick((r) => r.p99_ms))),
    ...(rss.length ? { rss_mb: round(median(rss), 1) } : {}),
    range: {
      rps: span(
        pick((r) => r.rps),
        0,
      ),
      p50_ms: span(pick((r) => r.p50_ms)),
      p99_ms: span(pick((r) => r.p99_ms)),
      ...(rss.length ? { rss_mb: span(rss, 1) } : {}),
    },
    runs: runs.length,
    rps_runs: runs.map((r) => round(r.rps, 1)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

/** Latencies recorded by our own closed loops (gRPC, refresh): percentiles by sorting. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Peak resident set of a process while `run` lasts: /proc/<pid>/status VmRSS every 100 ms. */
export async function withPeakRss<T>(
  pid: number | undefined,
  run: () => Promise<T>,
): Promise<{ value: T; rssMb?: number }> {
  if (pid === undefined) return { value: await run() };
  let peakKb = 0;
  const sample = () => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (match) peakKb = Math.max(peakKb, Number(match[1]));
    } catch {
      // The process is gone or /proc is unavailable: no figure.
    }
  };
  sample();
  const timer = setInterval(sample, 100);
  try {
    const value = await run();
    sample();
    return { value, rssMb: peakKb ? peakKb / 1024 : undefined };
  } finally {
    clearInterval(timer);
  }
}

/**
 * `a` against `b` when they were measured in the same rounds: the median of the per-round
 * ratios, so a drift of the machine's speed between rounds cancels out. Otherwise the ratio
 * of the medians.
 */
export function pairedRatio(a: Summary, b: Summary): number {
  const ratio =
    a.rps_runs.length === b.rps_runs.length && a.rps_runs.length > 0
      ? median(a.rps_runs.map((rps, i) => rps / b.rps_runs[i]))
      : a.rps / b.rps;
  return Math.round(ratio * 1000) / 1000;
}
