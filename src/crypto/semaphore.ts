/** Thrown by a bounded semaphore that cannot take a caller: its queue is full, or the wait ran out. */
export class QueueFullError extends Error {
  constructor(readonly why: "full" | "timeout") {
    super(why === "full" ? "the queue is full" : "waited too long in the queue");
    this.name = "QueueFullError";
  }
}

export interface QueueBounds {
  /** Callers that may wait at once; the next is refused at once. */
  maxQueue?: number;
  /** How long a caller may wait for a slot before it is refused. */
  maxWaitMs?: number;
}

interface Waiter {
  resolve: () => void;
  timer?: NodeJS.Timeout;
}

/**
 * Counting semaphore, first come first served, so no waiter starves under load. The queue is
 * bounded in length and in wait: under a flood a caller is refused (QueueFullError) rather
 * than joining a line whose wait grows without bound, and those already waiting keep their turn.
 */
export class Semaphore {
  private available: number;
  private readonly waiters: Waiter[] = [];
  private readonly maxQueue: number;
  private readonly maxWaitMs: number;

  constructor(
    readonly max: number,
    bounds: QueueBounds = {},
  ) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError("semaphore size must be a positive integer");
    this.available = max;
    this.maxQueue = bounds.maxQueue ?? Number.POSITIVE_INFINITY;
    this.maxWaitMs = bounds.maxWaitMs ?? Number.POSITIVE_INFINITY;
  }

  /** Callers waiting for a slot now. */
  get waiting(): number {
    return this.waiters.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.available > 0) {
      this.available--;
      return Promise.resolve();
    }
    if (this.waiters.length >= this.maxQueue) return Promise.reject(new QueueFullError("full"));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve };
      if (Number.isFinite(this.maxWaitMs)) {
        waiter.timer = setTimeout(() => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          reject(new QueueFullError("timeout"));
        }, this.maxWaitMs);
      }
      this.waiters.push(waiter);
    });
  }

  private release(): void {
    const next = this.waiters.shift();
    // Hand the slot straight to the next waiter, so a newcomer cannot jump the queue.
    if (next) {
      clearTimeout(next.timer);
      next.resolve();
    } else this.available++;
  }
}
