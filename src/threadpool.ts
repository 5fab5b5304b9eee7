import { loadConfig } from "./config.js";

// libuv sizes its thread pool once, from UV_THREADPOOL_SIZE, on the first task it queues; argon2
// runs on that pool beside fs, dns and the async log writes. So this module is imported first
// by main.ts and sets the variable before anything queues work: room for every argon2 hash
// allowed in flight plus 4 threads kept free for the rest. Cluster workers inherit it.
//
// Under `node --import tsx` (npm run dev, the tests) the loader has started the pool before any
// module of ours runs, so only processes forked from here get the size; `npm start` and the
// workers do. An operator's own UV_THREADPOOL_SIZE is always kept.
const FREE_FOR_IO = 4;

if (!process.env.UV_THREADPOOL_SIZE?.trim()) {
  const maxInFlight = passwordMaxInFlight();
  if (maxInFlight !== undefined) process.env.UV_THREADPOOL_SIZE = String(maxInFlight + FREE_FOR_IO);
}

/** The pool size this process asked libuv for (libuv's own default is 4). */
export function threadpoolSize(): number {
  return Number(process.env.UV_THREADPOOL_SIZE) || 4;
}

// A bad value is left for main.ts to report with its exit code; here it only means "no opinion".
function passwordMaxInFlight(): number | undefined {
  try {
    return loadConfig().passwordMaxInFlight;
  } catch {
    return undefined;
  }
}
