import { readdir, readFile, readlink } from "node:fs/promises";
import { eventually } from "./eventually.js";

// Whether a server process has accepted a connection, read from Linux's /proc. A client's
// connect() completes once the kernel has the connection in the listener's backlog, before the
// process accepts it; a connection still in the backlog when the listener closes is reset by
// the kernel and never reaches the process. One the process holds has reached it.

/** The client ports of the connections to `port` that the processes `pids` hold. */
export async function acceptedClientPorts(pids: readonly number[], port: number): Promise<Set<number>> {
  const held = new Set<string>();
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const inode = /^socket:\[(\d+)\]$/.exec(await readlink(`/proc/${pid}/fd/${fd}`).catch(() => ""))?.[1];
      if (inode) held.add(inode);
    }
  }
  const ports = new Set<number>();
  // sl local_address rem_address st tx_queue:rx_queue tr:when retrnsmt uid timeout inode …
  for (const line of (await readFile("/proc/net/tcp", "utf8")).split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    const local = parseInt(fields[1].split(":")[1], 16);
    if (local === port && held.has(fields[9])) ports.add(parseInt(fields[2].split(":")[1], 16));
  }
  return ports;
}

/** Waits until the processes `pids` hold the connections from every one of `clientPorts`. */
export async function untilAccepted(pids: readonly number[], port: number, clientPorts: readonly number[]): Promise<void> {
  await eventually(`${clientPorts.length} connections accepted by ${pids.join(", ")}`, async () => {
    const accepted = await acceptedClientPorts(pids, port);
    return clientPorts.every((p) => accepted.has(p));
  }, 20_000);
}
