import type { Logger } from "../../log.js";

/**
 * Work a flow hands off after answering, so the answer's timing cannot depend on it (what a
 * registered address costs more than an unknown one). It starts on the event loop's next turn,
 * after the promise callbacks that encode and write an answer needing no further I/O (a reset
 * request's). Started at once, its first query ran alongside the answer, and on a busy machine
 * a registered address's reset was answered 12 % later than an unknown one's. A failure is
 * logged, never thrown: the caller was already answered.
 *
 * The dependencies own it (FlowDeps.detached), not the process: a shutdown waits for its own
 * instance's work before closing that instance's database, and two instances in one process
 * (tests, the cluster tests) never wait for each other's.
 */
export interface DetachedWork {
  run(what: string, work: () => Promise<void>): void;
  /** Resolves when every task started so far, and every task those started, has ended. */
  settle(): Promise<void>;
}

export function createDetachedWork(logger: Logger): DetachedWork {
  const running = new Set<Promise<void>>();
  return {
    run(what, work) {
      const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(work)
        .catch((error: unknown) => logger.error({ err: error, work: what }, "detached work failed"))
        .finally(() => running.delete(task));
      running.add(task);
    },
    async settle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
