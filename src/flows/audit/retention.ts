import type { FlowDeps } from "../deps.js";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per DELETE: small enough that one statement holds its locks only briefly. */
export const AUDIT_SWEEP_BATCH = 1000;

/**
 * Deletes the events older than AUDIT_RETENTION_DAYS by the service's clock, a batch at a
 * time until none is left, and says how many went. Safe on several instances at once: each
 * batch deletes what it finds, and a row deleted by another is simply not found.
 */
export async function sweepAuditEvents(deps: Pick<FlowDeps, "config" | "db" | "clock">): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - deps.config.auditRetentionDays * DAY_MS);
  let total = 0;
  for (;;) {
    const deleted = await deps.db.repos.auditEvents.deleteOlderThan(before, AUDIT_SWEEP_BATCH);
    total += deleted;
    if (deleted < AUDIT_SWEEP_BATCH) break;
  }
  // Webhook events and their delivery logs are kept as long as the audit events they come from.
  await deps.db.repos.webhookDeliveries.deleteOlderThan(before);
  // The OpenID Provider's codes, tokens and sessions a day after they expired (a consumed
  // code is kept that long so that its replay is still recognised and answered).
  await deps.db.repos.oidcPayloads.deleteExpired(new Date(deps.clock.now().getTime() - DAY_MS));
  return total;
}

/**
 * The periodic sweep, every AUDIT_SWEEP_INTERVAL_MS. A sweep that fails (the database away) is
 * logged and tried again at the next tick; the timer never keeps the process alive.
 */
export function startAuditRetention(deps: Pick<FlowDeps, "config" | "db" | "clock" | "logger">): {
  stop(): Promise<void>;
} {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = sweepAuditEvents(deps)
      .then((deleted) => {
        if (deleted > 0)
          deps.logger.info(
            { deleted, retention_days: deps.config.auditRetentionDays },
            "audit events past retention deleted",
          );
      })
      .catch((error: unknown) => deps.logger.warn({ err: error }, "audit retention sweep failed"))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, deps.config.auditSweepIntervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
