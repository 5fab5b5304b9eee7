import { performance } from "node:perf_hooks";

/**
 * How long another instance may still accept what one instance revoked or changed: the change
 * reaches it as a database notice a little after the writer's answer (store/change-feed.ts).
 * docs/operations.md states this bound.
 */
export const STALE_BOUND_MS = 100;

export interface Staleness {
  probes: number;
  accepted: number;
  /** How long after the write's answer the last acceptance came back (0: none). */
  lastAcceptedMs: number;
  /** Acceptances after a refusal: the other instance must never go back. */
  flapped: number;
}

/**
 * Asks `accepts` again and again (one request at a time, as fast as they answer) from the moment
 * a write answered, until it has refused 10 times in a row or 5 s have passed.
 */
export async function probeAfter(accepts: () => Promise<boolean>): Promise<Staleness> {
  const answered = performance.now();
  let probes = 0;
  let accepted = 0;
  let flapped = 0;
  let lastAcceptedMs = 0;
  let refusedInARow = 0;
  let refusedOnce = false;
  while (refusedInARow < 10 && performance.now() - answered < 5_000) {
    const ok = await accepts();
    probes++;
    if (ok) {
      accepted++;
      if (refusedOnce) flapped++;
      lastAcceptedMs = performance.now() - answered;
      refusedInARow = 0;
    } else {
      refusedOnce = true;
      refusedInARow++;
    }
  }
  return { probes, accepted, lastAcceptedMs, flapped };
}
