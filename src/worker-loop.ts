/**
 * The loop of a delivery worker (mail and SMS: notify/worker.ts; webhooks: webhooks/worker.ts):
 * one `drain` at a time, again at once when kicked while one runs (work may have been queued
 * after it looked), else again after `intervalMs`. The timer never keeps the process alive.
 */
export interface WorkerLoop {
  start(): void;
  /** Drain now (after a commit that queued work), or right after the drain under way. */
  kick(): void;
  /** No more drains; waits up to `waitMs` for the one under way. */
  stop(waitMs: number): Promise<void>;
  /** Started and not stopped: a drain checks it between batches. */
  active(): boolean;
}

/** How long a worker's stop() lets a send in flight finish before dropping it. */
export const STOP_WAIT_MS = 2_000;

export function workerLoop(options: {
  drain: () => Promise<void>;
  intervalMs: number;
  /** A drain that threw (the database away): logged; the next tick tries again. */
  onError: (err: unknown) => void;
}): WorkerLoop {
  let running = false;
  let stopped = true;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  function kick(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    clearTimeout(timer);
    current = options
      .drain()
      .catch(options.onError)
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          kick();
        } else if (!stopped) {
          timer = setTimeout(kick, options.intervalMs);
          timer.unref();
        }
      });
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      kick();
    },
    kick,
    active: () => !stopped,
    async stop(waitMs) {
      stopped = true;
      clearTimeout(timer);
      let waited: NodeJS.Timeout | undefined;
      await Promise.race([current, new Promise((resolve) => (waited = setTimeout(resolve, waitMs)))]);
      clearTimeout(waited);
    },
  };
}
