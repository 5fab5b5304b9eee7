import type { Logger } from "pino";

/** Work that must wait for a write to be durable: delivering what it queued, invalidating a cache, a webhook. */
export type AfterCommitTask = () => void | Promise<void>;

export interface AfterCommit {
  /**
   * Runs `task` once the transaction these repositories belong to has committed, and never if
   * it rolls back, so nothing is announced for a write that did not happen. Outside a
   * transaction (db.repos) each statement has committed when it returns, so the task runs at
   * once. A task that fails is logged, not thrown: the write it follows stands, and the caller
   * gets its answer (what must not be lost is written in the transaction, as the outbox is).
   */
  afterCommit(task: AfterCommitTask): void;
}

/**
 * The tasks of one transaction, kept while it runs: `committed()` runs them in order (and any
 * registered later, at once). A transaction that rolled back never calls it, so they are dropped.
 */
export function afterCommitQueue(logger: Logger): AfterCommit & { committed(): Promise<void> } {
  let tasks: AfterCommitTask[] | "committed" = [];
  return {
    afterCommit(task) {
      if (tasks === "committed") void runAfterCommit(logger, task);
      else tasks.push(task);
    },
    async committed() {
      if (!Array.isArray(tasks)) return;
      const registered = tasks;
      tasks = "committed";
      for (const task of registered) await runAfterCommit(logger, task);
    },
  };
}

/** For repositories outside a transaction: every statement has committed already. */
export function afterEachStatement(logger: Logger): AfterCommit {
  return { afterCommit: (task) => void runAfterCommit(logger, task) };
}

async function runAfterCommit(logger: Logger, task: AfterCommitTask): Promise<void> {
  try {
    await task();
  } catch (error) {
    logger.error({ err: error }, "work after commit failed");
  }
}
