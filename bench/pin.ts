// Pins processes to cores for the per-core workloads, with taskset (util-linux), and puts them
// back afterwards: the servers on the first core, the load generator on the second.
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";

function taskset(pid: number, cpus: string): boolean {
  // -a: every thread of the process (libuv's pool, V8's helpers), not just the main one.
  return spawnSync("taskset", ["-a", "-p", "-c", cpus, String(pid)], { stdio: "ignore" }).status === 0;
}

/**
 * Runs `body` with `servers` on core 0 and `generator` on core 1; on a machine with one core,
 * or without taskset, runs it unpinned and says so.
 */
export async function pinned<T>(
  servers: Array<number | undefined>,
  generator: number,
  progress: (line: string) => void,
  body: () => Promise<T>,
): Promise<T> {
  const cores = availableParallelism();
  const all = `0-${cores - 1}`;
  const ok = cores >= 2 && servers.every((pid) => pid !== undefined && taskset(pid, "0")) && taskset(generator, "1");
  progress(ok ? "servers pinned to core 0, load generator to core 1" : "could not pin (taskset, 2 cores): unpinned");
  try {
    return await body();
  } finally {
    for (const pid of [...servers, generator]) if (pid !== undefined) taskset(pid, all);
  }
}
