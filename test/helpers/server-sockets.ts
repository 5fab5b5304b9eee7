import { readdir, readFile, readlink } from "node:fs/promises";
import { eventually } from "./eventually.js";

// What a server process has done with the connections a test opened, read from Linux's /proc
// rather than guessed with a sleep. A client's connect() completes once the kernel has put the
// connection in the listener's backlog, before the process accepts it (a connection still there
// when the listener closes is reset by the kernel and never reaches the process); bytes the
// client wrote wait in the kernel until the process reads them.

interface ServerSocket {
  /** Accepted: one of the processes holds it. */
  held: boolean;
  /** Bytes received that the process has not read yet. */
  unread: number;
}

/** The server ends of the connections to `port` on 127.0.0.1, by client port. */
async function serverSockets(pids: readonly number[], port: number): Promise<Map<number, ServerSocket>> {
  const inodes = new Set<string>();
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const inode = /^socket:\[(\d+)\]$/.exec(await readlink(`/proc/${pid}/fd/${fd}`).catch(() => ""))?.[1];
      if (inode) inodes.add(inode);
    }
  }
  const sockets = new Map<number, ServerSocket>();
  // sl local_address rem_address st tx_queue:rx_queue tr:when retrnsmt uid timeout inode …
  for (const line of (await readFile("/proc/net/tcp", "utf8")).split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10 || parseInt(fields[1].split(":")[1], 16) !== port) continue;
    const client = parseInt(fields[2].split(":")[1], 16);
    if (client === 0) continue; // the listener
    sockets.set(client, { held: inodes.has(fields[9]), unread: parseInt(fields[4].split(":")[1], 16) });
  }
  return sockets;
}

/** Waits until the processes `pids` hold the connections from every one of `clientPorts`. */
export function untilAccepted(pids: readonly number[], port: number, clientPorts: readonly number[]): Promise<unknown> {
  return eventually(`${clientPorts.length} connections accepted by ${pids.join(", ")}`, async () => {
    const sockets = await serverSockets(pids, port);
    return clientPorts.every((p) => sockets.get(p)?.held);
  });
}

/** Waits until the processes `pids` hold those connections and have read all they were sent. */
export function untilRead(pids: readonly number[], port: number, clientPorts: readonly number[]): Promise<unknown> {
  return eventually(`what ${clientPorts.length} connections sent read by ${pids.join(", ")}`, async () => {
    const sockets = await serverSockets(pids, port);
    return clientPorts.every((p) => sockets.get(p)?.held && sockets.get(p)?.unread === 0);
  });
}
