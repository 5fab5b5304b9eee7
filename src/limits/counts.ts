/**
 * Gatehouse's own counts: the ones a try or a send changes several of at once, atomically, in
 * one round trip (take, giveBack, forget), and the account waits that are forgotten with them.
 * They live in our table `limit_counts` (migration 1733700000000) or under our Redis prefix
 * `gatehouse:count:`; rate-limiter-flexible never reads or writes either, and we never touch
 * its table or keys (library-counter.ts uses it through its public API only).
 */
export interface Count {
  count: number;
  msBeforeReset: number;
}

/** One count of one counter: the counter's name and window, and the key counted. */
export interface CountRef {
  counter: string;
  windowSeconds: number;
  key: string;
}

export interface AtomicCounts {
  /**
   * Adds one to each count, atomically in the store, and answers the counts with this one
   * included: one round trip. A count whose window has ended starts again at one, with a
   * window of its ref's `windowSeconds` (whole, at least 1).
   */
  take(refs: CountRef[]): Promise<Count[]>;
  /** Takes back one from each count still in its window and above zero: one round trip. */
  giveBack(refs: CountRef[]): Promise<void>;
  /** Deletes the counts: one round trip. */
  forget(refs: CountRef[]): Promise<void>;
  /** Sets the count to `points` for a new window of the ref's `windowSeconds` from now. */
  put(ref: CountRef, points: number): Promise<void>;
  /** Stops what runs in the background (the PostgreSQL sweep of expired counts). */
  stop(): void;
}

/** A count's key in our store: `fail_account:<project>:<hmac>`. */
export function countKey(ref: CountRef): string {
  return `${ref.counter}:${ref.key}`;
}

/** Whole seconds, at least 1: Redis expiries are whole seconds, and a window of 0 would never end. */
export function wholeSeconds(seconds: number): number {
  return Math.max(1, Math.floor(seconds));
}

/** The distinct keys of `refs`, sorted, so two statements over the same keys cannot deadlock. */
export function sortedKeys(refs: CountRef[]): string[] {
  return [...new Set(refs.map(countKey))].sort();
}

/** sortedKeys, each with the window of the first ref of that key, as parallel arrays for unnest(). */
export function sortedKeyWindows(refs: CountRef[]): { keys: string[]; windowSeconds: number[] } {
  const windowOf = new Map<string, number>();
  for (const ref of refs) if (!windowOf.has(countKey(ref))) windowOf.set(countKey(ref), ref.windowSeconds);
  const sorted = [...windowOf].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { keys: sorted.map(([key]) => key), windowSeconds: sorted.map(([, seconds]) => seconds) };
}
