import { Counter, Gauge } from "prom-client";
import type { FlowDeps } from "../flows/deps.js";
import type { OutboxChannel } from "../domain/outbox.js";
import { poolCounts } from "../store/pool.js";
import type { ChannelBacklog } from "../store/repositories/outbox.js";
import { VERIFICATION_CACHES } from "../store/verification-cache.js";
import { registry } from "./registry.js";

// What is read when a scrape asks rather than counted as it happens: the outbox (a query), the
// database pool and the verification cache's counters. A server registers its dependencies
// while it runs (watchState); a test process may run several, whose values add up.

const watched = new Set<FlowDeps>();

/** Reports `deps` in every scrape until the returned function is called. */
export function watchState(deps: FlowDeps): () => void {
  watched.add(deps);
  return () => watched.delete(deps);
}

const CHANNELS: OutboxChannel[] = ["email", "sms"];

// Both outbox gauges come from one query per scrape: the registry collects them at the same
// time, so the second shares the first's read while it is under way.
// A failed read reports nothing rather than an empty outbox (null rows).
let outboxRead: Promise<Array<{ deps: FlowDeps; rows: ChannelBacklog[] | null }>> | undefined;
function readOutbox() {
  outboxRead ??= Promise.all(
    [...watched].map(async (deps) => ({
      deps,
      rows: await deps.db.repos.outbox.backlog().catch(() => null),
    })),
  ).finally(() => (outboxRead = undefined));
  return outboxRead;
}

// Every instance sees the same outbox table, so a cluster's workers report the same numbers:
// the aggregate takes the largest, not the sum.
new Gauge({
  name: "gatehouse_outbox_backlog",
  help: "Messages (email, SMS) queued and not yet delivered, by channel.",
  labelNames: ["channel"] as const,
  aggregator: "max",
  registers: [registry],
  async collect() {
    this.reset();
    const reads = await readOutbox();
    if (reads.some((read) => read.rows === null)) return;
    const totals = new Map(CHANNELS.map((c) => [c, 0]));
    for (const { rows } of reads)
      for (const row of rows ?? []) totals.set(row.channel, (totals.get(row.channel) ?? 0) + row.pending);
    for (const [channel, count] of totals) this.set({ channel }, count);
  },
});

new Gauge({
  name: "gatehouse_outbox_oldest_age_seconds",
  help: "Age of the oldest undelivered message, by channel; 0 when none waits.",
  labelNames: ["channel"] as const,
  aggregator: "max",
  registers: [registry],
  async collect() {
    this.reset();
    const reads = await readOutbox();
    if (reads.some((read) => read.rows === null)) return;
    const ages = new Map(CHANNELS.map((c) => [c, 0]));
    for (const { deps, rows } of reads) {
      const now = deps.clock.now().getTime();
      for (const row of rows ?? []) {
        if (row.oldest === null) continue;
        const age = Math.max(0, (now - row.oldest.getTime()) / 1000);
        ages.set(row.channel, Math.max(ages.get(row.channel) ?? 0, age));
      }
    }
    for (const [channel, age] of ages) this.set({ channel }, age);
  },
});

function poolOf(deps: FlowDeps) {
  return poolCounts(deps.db.dataSource);
}

new Gauge({
  name: "gatehouse_db_pool_connections",
  help: "Database connections of this process's pool, by state (in_use, idle).",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    let inUse = 0;
    let idle = 0;
    for (const deps of watched) {
      const pool = poolOf(deps);
      if (!pool) continue;
      inUse += pool.totalCount - pool.idleCount;
      idle += pool.idleCount;
    }
    this.set({ state: "in_use" }, inUse);
    this.set({ state: "idle" }, idle);
  },
});

new Gauge({
  name: "gatehouse_db_pool_waiting",
  help: "Queries waiting for a free database connection in this process's pool.",
  registers: [registry],
  collect() {
    let waiting = 0;
    for (const deps of watched) waiting += poolOf(deps)?.waitingCount ?? 0;
    this.set(waiting);
  },
});

new Gauge({
  name: "gatehouse_db_pool_max",
  help: "The most connections this process's pool opens.",
  registers: [registry],
  collect() {
    let max = 0;
    for (const deps of watched) max += poolOf(deps)?.max ?? 0;
    this.set(max);
  },
});

// The cache counts in plain numbers on the hot path; they are copied here at scrape time.
new Counter({
  name: "gatehouse_verification_cache_lookups_total",
  help: "Lookups of the verification cache (what authenticated requests read), by cache and result (hit: from memory; miss: from the database). Hit rate: hit / (hit + miss).",
  labelNames: ["cache", "result"] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const cache of VERIFICATION_CACHES) {
      let hits = 0;
      let misses = 0;
      for (const deps of watched) {
        hits += deps.verification.stats[cache].hits;
        misses += deps.verification.stats[cache].misses;
      }
      this.inc({ cache, result: "hit" }, hits);
      this.inc({ cache, result: "miss" }, misses);
    }
  },
});
