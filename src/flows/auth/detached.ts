import type { Logger } from "../../log.js";

const running = new Set<Promise<void>>();

/**
 * Work a flow hands off after answering, so the answer's timing cannot depend on it (what a
 * registered address costs more than an unknown one). It starts on the event loop's next turn,
 * after the promise callbacks that encode and write an answer needing no further I/O (a reset
 * request's). Started at once, its first query ran alongside the answer, and on a busy machine
 * a registered address's reset was answered 12 % later than an unknown one's. A failure is
 * logged, never thrown: the caller was already answered. settleDetached() lets a shutdown wait
 * for it before closing the database.
 */
export function runDetached(logger: Logger, what: string, work: () => Promise<void>): void {
  const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(work)
    .catch((error: unknown) => logger.error({ err: error, work: what }, "detached work failed"))
    .finally(() => running.delete(task));
  running.add(task);
}

/** Resolves when every detached task started so far has ended. */
export async function settleDetached(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}
