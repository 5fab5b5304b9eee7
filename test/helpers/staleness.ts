import { performance } from "node:perf_hooks";
import { watchLateness } from "./lateness.js";

/**
 * How long another instance may still accept what one instance revoked or changed: the change
 * reaches it as a database notice a little after the writer's answer (store/change-feed.ts).
 * docs/operations.md states this bound.
 */
export const STALE_BOUND_MS = 100;

export interface Staleness {
  probes: number;
  accepted: number;
  /**
   * How long after the write's answer the last accepted probe was sent (0: none). The bound is
   * about when a request reaches the other instance, which is no earlier than its sending; when
   * its answer came back also counts the other instance's reply time, which a busy machine
   * stretches.
   */
  lastAcceptedMs: number;
  /** Acceptances after a refusal: the other instance must never go back. */
  flapped: number;
  /** How late this process's timers ran while probing (lateness.ts). */
  lateMs: number;
  /** What lastAcceptedMs is held to: STALE_BOUND_MS and the lateness seen. */
  allowedMs: number;
}

/**
 * Asks `accepts` again and again (one request at a time, as fast as they answer) from the moment
 * a write answered, until it has refused 10 times in a row or 5 s (and the lateness seen) have
 * passed.
 */
export async function probeAfter(accepts: () => Promise<boolean>): Promise<Staleness> {
  const answered = performance.now();
  const late = watchLateness();
  let probes = 0;
  let accepted = 0;
  let flapped = 0;
  let lastAcceptedMs = 0;
  let refusedInARow = 0;
  let refusedOnce = false;
  while (refusedInARow < 10 && performance.now() - answered < late.allowing(5_000)) {
    const sent = performance.now();
    const ok = await accepts();
    probes++;
    if (ok) {
      accepted++;
      if (refusedOnce) flapped++;
      lastAcceptedMs = sent - answered;
      refusedInARow = 0;
    } else {
      refusedOnce = true;
      refusedInARow++;
    }
  }
  const lateMs = late.stop();
  return { probes, accepted, lastAcceptedMs, flapped, lateMs, allowedMs: STALE_BOUND_MS + lateMs };
}
