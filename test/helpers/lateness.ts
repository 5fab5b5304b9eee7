import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";

/**
 * How late timers fire in this process: the machine's slowness, measured in the same run as
 * what it slows down. A test that holds a documented bound ("503 within 2 s", "stale for at
 * most 100 ms") allows that bound plus the lateness seen while it measured, so a busy machine
 * does not fail it but a product that misses the bound by more than the machine's delay does.
 * The service under test runs in this process (startTestServer) or beside it on the same cores
 * (spawnService), so its timers and its answers are late by about as much. docs/testing.md,
 * "On a busy machine".
 */
export interface LatenessWatch {
  /** The latest a timer fired in this process since the watch began, in milliseconds. */
  lateMs(): number;
  /** `boundMs` and the lateness seen so far: what a measurement is held to. */
  allowing(boundMs: number): number;
  /** Stops watching; answers lateMs(). */
  stop(): number;
}

export function watchLateness(): LatenessWatch {
  // A timer every 10 ms: its delay past 10 ms is the lateness (nanoseconds in the histogram).
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let stopped: number | undefined;
  const lateMs = () => stopped ?? (histogram.count > 0 ? Math.round(histogram.max / 1e6) : 0);
  return {
    lateMs,
    allowing: (boundMs) => boundMs + lateMs(),
    stop() {
      if (stopped === undefined) {
        stopped = lateMs();
        histogram.disable();
      }
      return stopped;
    },
  };
}
