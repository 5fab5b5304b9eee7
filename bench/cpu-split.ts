import { readdirSync, readFileSync } from "node:fs";

/**
 * Where the machine's CPU went while a workload ran, from /proc: the service's main thread, its
 * other threads (the libuv pool's argon2 hashes, V8's compiler and GC helpers), PostgreSQL's
 * processes, the benchmark itself (the load generator) and everything else. Unlike a CPU
 * profile this counts time actually run, not time a sampled thread spent descheduled, which
 * on a saturated 2-core machine is most of a system call's apparent cost.
 */
export interface CpuSplit {
  /** Machine time of the run: cores × seconds, in CPU-seconds. */
  machine_s: number;
  /** Each part in CPU-seconds. */
  parts: Record<CpuPart, number>;
}

// Node 20 names none of its threads, so the libuv pool (argon2) and V8's helpers are one part.
export type CpuPart = "service_main" | "service_threads" | "postgres" | "bench" | "other" | "idle";

const TICK_S = 0.01;

/** utime + stime of a /proc stat line, in seconds; the name in parentheses may hold spaces. */
function statCpu(path: string): { name: string; cpu: number } | undefined {
  try {
    const text = readFileSync(path, "utf8");
    const open = text.indexOf("(");
    const close = text.lastIndexOf(")");
    const fields = text.slice(close + 2).split(" ");
    // Fields after the name start at 3 (state); utime and stime are 14 and 15.
    return { name: text.slice(open + 1, close), cpu: (Number(fields[11]) + Number(fields[12])) * TICK_S };
  } catch {
    return undefined;
  }
}

function machine(): { busy: number; idle: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0];
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal
  const idle = values[3] + values[4];
  const total = values.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: (total - idle) * TICK_S, idle: idle * TICK_S };
}

function snapshot(
  servicePid: number,
): Record<Exclude<CpuPart, "other" | "idle">, number> & { busy: number; idle: number } {
  const parts = { service_main: 0, service_threads: 0, postgres: 0, bench: 0 };
  for (const tid of readdirSync(`/proc/${servicePid}/task`)) {
    const stat = statCpu(`/proc/${servicePid}/task/${tid}/stat`);
    if (!stat) continue;
    if (Number(tid) === servicePid) parts.service_main += stat.cpu;
    else parts.service_threads += stat.cpu;
  }
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = statCpu(`/proc/${pid}/stat`);
    if (stat?.name === "postgres") parts.postgres += stat.cpu;
  }
  parts.bench = statCpu(`/proc/${process.pid}/stat`)?.cpu ?? 0;
  return { ...parts, ...machine() };
}

/**
 * Runs `run` and answers the CPU each part used meanwhile. PostgreSQL backends that start or
 * end during the run are missed (the pool's connections live across it).
 */
export async function withCpuSplit<T>(
  servicePid: number,
  run: () => Promise<T>,
): Promise<{ value: T; split: CpuSplit }> {
  const before = snapshot(servicePid);
  const value = await run();
  const after = snapshot(servicePid);
  const d = (k: keyof typeof before) => Math.max(0, after[k] - before[k]);
  const named = d("service_main") + d("service_threads") + d("postgres") + d("bench");
  const parts: Record<CpuPart, number> = {
    service_main: d("service_main"),
    service_threads: d("service_threads"),
    postgres: d("postgres"),
    bench: d("bench"),
    other: Math.max(0, d("busy") - named),
    idle: d("idle"),
  };
  return { value, split: { machine_s: d("busy") + d("idle"), parts } };
}

/** One line per part: share of the machine and milliseconds of CPU per request. */
export function formatCpuSplit(split: CpuSplit, requests: number): string {
  const rows = (Object.entries(split.parts) as Array<[CpuPart, number]>).map(
    ([part, s]) =>
      `| ${part} | ${((100 * s) / split.machine_s).toFixed(1)} % | ${part === "idle" ? "–" : ((1000 * s) / requests).toFixed(2)} |`,
  );
  return ["| part | share of the machine | CPU ms per request |", "|---|---|---|", ...rows].join("\n");
}
