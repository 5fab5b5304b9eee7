import { access, readdirSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { loadConfig } from "./config.js";

// libuv sizes its thread pool once, from UV_THREADPOOL_SIZE, when the first task is queued;
// argon2 runs on that pool beside fs, dns and the async log writes. This module sets the size:
// room for every argon2 hash allowed in flight plus 4 threads kept free for the rest.
//
// It must run before anything queues work, and an ES module entry point is too late: Node's
// ESM loader reads the entry file through the pool before the first module of ours runs. So
// `npm start` preloads this module with `node --require` (require() of an ES module is
// synchronous on Node 20.19+), main.ts imports it again (the same instance), and cluster workers
// inherit both the flag and the variable. Under `npm run dev` and the tests the pool has already
// started when this runs, and keeps the size it started with. An operator's own
// UV_THREADPOOL_SIZE is always kept.
//
// On Linux it also lowers the pool threads' priority by THREADPOOL_NICE steps: with argon2 on
// every core, the event loop otherwise waits for a scheduler slice behind the hashes, and a
// login storm tripled VerifyToken's p99. Lowered, argon2 still gets every cycle the event loop
// and PostgreSQL leave.
const FREE_FOR_IO = 4;
const LIBUV_DEFAULT = 4;

const inherited = Number(process.env.UV_THREADPOOL_SIZE) || LIBUV_DEFAULT;
const config = readConfig();
if (!process.env.UV_THREADPOOL_SIZE?.trim() && config) {
  process.env.UV_THREADPOOL_SIZE = String(config.passwordMaxInFlight + FREE_FOR_IO);
}
const started = startPool(config?.threadpoolNice ?? 0);

export interface Threadpool {
  /** Threads in this process's libuv pool: counted when it started here, else the size it had. */
  size: number;
  /** Nice steps below the event loop, when this module started the pool (0 otherwise). */
  nice: number;
}

export function threadpool(): Threadpool {
  return started ?? { size: inherited, nice: 0 };
}

// Queues one task so that libuv starts every pool thread now, synchronously, and finds the
// threads that appeared (Linux only): none means the pool was already running.
function startPool(nice: number): Threadpool | undefined {
  if (process.platform !== "linux") {
    access(".", () => {});
    return undefined;
  }
  const before = new Set(readdirSync("/proc/self/task"));
  access(".", () => {});
  const added = readdirSync("/proc/self/task").filter((tid) => !before.has(tid));
  if (added.length === 0) return undefined;
  let lowered = 0;
  try {
    for (const tid of added) {
      // Relative to the thread's own niceness, so a process started under `nice` goes lower still.
      const current = getPriority(Number(tid));
      const target = Math.min(19, current + nice);
      setPriority(Number(tid), target);
      lowered = target - current;
    }
  } catch {
    // Lowering one's own threads needs no privilege; only a sandbox that forbids the call gets
    // here, and then the rest of the pool keeps the process's priority.
  }
  return { size: added.length, nice: lowered };
}

// A bad value is left for main.ts to report with its exit code; here it only means "no opinion".
function readConfig() {
  try {
    return loadConfig();
  } catch {
    return undefined;
  }
}
