import { WAIT_GUARD_MS } from "./patience.js";

/**
 * Polls `probe` until it answers something truthy, and answers that; fails after `timeoutMs`
 * (a hang guard, patience.ts) naming `what`. The one way tests wait for something that happens
 * after an answer (a mail, a worker, a recovered database), rather than sleeping a guessed time.
 */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = WAIT_GUARD_MS,
  everyMs = 25,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** How long `check` took to hold, in whole milliseconds (for the figures a test reports). */
export async function msUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = WAIT_GUARD_MS,
): Promise<number> {
  const started = performance.now();
  await eventually(what, check, timeoutMs, 50);
  return Math.round(performance.now() - started);
}
