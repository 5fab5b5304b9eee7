// Reads what `node --trace-gc` wrote to the service's log and answers whether the collector is
// behind a workload's tail: how many scavenges and mark-compacts ran, how long the longest
// pauses were, and how much the old generation held after each mark-compact (its live data).
import { readFileSync } from "node:fs";

export interface GcSummary {
  seconds: number;
  scavenges: number;
  scavenge_pause_ms: { total: number; max: number };
  mark_compacts: number;
  mark_compact_pause_ms: { total: number; max: number; median: number };
  /** The heap after each mark-compact (MB), first and last: live data, and whether it grows. */
  heap_after_mark_compact_mb: { first: number; last: number };
  /** The heap before each mark-compact minus after the previous one, per second: promoted MB/s. */
  promoted_mb_per_s: number;
}

// [pid:0x…]    1234 ms: Scavenge 45.2 (50.1) -> 40.3 (52.1) MB, 1.23 / 0.00 ms  (…
const LINE =
  /\s(\d+) ms: (Scavenge|Mark-Compact|Minor Mark-Compact)[^\d]*([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB, ([\d.]+) \//;

/** The GC lines of `log` between `fromMs` and `toMs` of the process's own clock (its start is 0). */
export function summarizeGc(log: string, fromMs: number, toMs: number): GcSummary {
  const scavenges: number[] = [];
  const marks: Array<{ at: number; before: number; after: number; pause: number }> = [];
  for (const line of readFileSync(log, "utf8").split("\n")) {
    const m = LINE.exec(line);
    if (!m) continue;
    const at = Number(m[1]);
    if (at < fromMs || at > toMs) continue;
    const pause = Number(m[5]);
    if (m[2] === "Mark-Compact") marks.push({ at, before: Number(m[3]), after: Number(m[4]), pause });
    else scavenges.push(pause);
  }
  const pauses = marks.map((m) => m.pause).sort((a, b) => a - b);
  let promoted = 0;
  for (let i = 1; i < marks.length; i++) promoted += marks[i].before - marks[i - 1].after;
  const span = marks.length > 1 ? (marks.at(-1)!.at - marks[0].at) / 1000 : 0;
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    seconds: (toMs - fromMs) / 1000,
    scavenges: scavenges.length,
    scavenge_pause_ms: { total: round(sum(scavenges)), max: round(Math.max(0, ...scavenges)) },
    mark_compacts: marks.length,
    mark_compact_pause_ms: {
      total: round(sum(pauses)),
      max: round(Math.max(0, ...pauses)),
      median: round(pauses[Math.floor(pauses.length / 2)] ?? 0),
    },
    heap_after_mark_compact_mb: { first: marks[0]?.after ?? 0, last: marks.at(-1)?.after ?? 0 },
    promoted_mb_per_s: span > 0 ? round(promoted / span) : 0,
  };
}

export function formatGc(workload: string, rps: number, p99: number, gc: GcSummary): string {
  return [
    `${workload}: ${Math.round(rps).toLocaleString("en")} req/s, p99 ${p99.toFixed(1)} ms over ${gc.seconds} s`,
    `  scavenges: ${gc.scavenges}, ${gc.scavenge_pause_ms.total} ms in all, longest ${gc.scavenge_pause_ms.max} ms`,
    `  mark-compacts: ${gc.mark_compacts}, ${gc.mark_compact_pause_ms.total} ms in all, median ${gc.mark_compact_pause_ms.median} ms, longest ${gc.mark_compact_pause_ms.max} ms`,
    `  old generation after each mark-compact: ${gc.heap_after_mark_compact_mb.first} → ${gc.heap_after_mark_compact_mb.last} MB; promoted ${gc.promoted_mb_per_s} MB/s`,
  ].join("\n");
}
