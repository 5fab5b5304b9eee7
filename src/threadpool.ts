import { access, readdirSync } from "node:fs";
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
const FREE_FOR_IO = 4;
const LIBUV_DEFAULT = 4;

const inherited = Number(process.env.UV_THREADPOOL_SIZE) || LIBUV_DEFAULT;
if (!process.env.UV_THREADPOOL_SIZE?.trim()) {
  const maxInFlight = passwordMaxInFlight();
  if (maxInFlight !== undefined) process.env.UV_THREADPOOL_SIZE = String(maxInFlight + FREE_FOR_IO);
}
const started = startPool();

/** The size of this process's libuv pool: counted when it started here, else the size it had. */
export function threadpoolSize(): number {
  return started ?? inherited;
}

// Queues one task so that libuv starts every pool thread now, synchronously, and counts the
// threads that appeared (Linux only): 0 new threads means the pool was already running.
function startPool(): number | undefined {
  if (process.platform !== "linux") {
    access(".", () => {});
    return undefined;
  }
  const before = new Set(readdirSync("/proc/self/task"));
  access(".", () => {});
  const added = readdirSync("/proc/self/task").filter((tid) => !before.has(tid)).length;
  return added > 0 ? added : undefined;
}

// A bad value is left for main.ts to report with its exit code; here it only means "no opinion".
function passwordMaxInFlight(): number | undefined {
  try {
    return loadConfig().passwordMaxInFlight;
  } catch {
    return undefined;
  }
}
