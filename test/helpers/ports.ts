import { randomInt } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";

/**
 * A loopback port with nothing listening on it (yet): an SMTP relay that is down until a sink
 * starts there, or a port a server is told to take (PUBLIC_URL names it before it listens).
 * It is taken below the kernel's ephemeral range: a port the kernel handed out for `listen(0)`
 * and released is soon handed out again, to another test's server or outgoing connection, and
 * what was meant to start there later would find it in use (EADDRINUSE).
 */
export async function closedPort(): Promise<number> {
  const [ephemeralLow] = (await readFile("/proc/sys/net/ipv4/ip_local_port_range", "utf8").catch(() => "32768"))
    .trim()
    .split(/\s+/)
    .map(Number);
  const low = 10_000;
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = low + randomInt(Math.max(1, ephemeralLow - low));
    const probe = createServer();
    const free = await new Promise<boolean>((resolve) => {
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => probe.close(resolve));
      return port;
    }
  }
  throw new Error(`no free loopback port between ${low} and ${ephemeralLow}`);
}
