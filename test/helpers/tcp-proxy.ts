import { connect, createServer, type AddressInfo, type Socket } from "node:net";

// A TCP proxy between the service and PostgreSQL that a test can break the way networks break:
// - refuse(): new connections are closed at once and every open one is reset, as when the
//   server is down (the service sees ECONNRESET and dead connects at once);
// - blackhole(): connections stay open, new ones are accepted, and every byte either way is
//   dropped without a word, as in a partition where packets vanish (the service sees nothing
//   at all: only its own timeouts can tell);
// - restore(): traffic passes again, on new connections and on black-holed ones that carried
//   nothing meanwhile (an idle connection survives a short partition). A connection that lost
//   bytes stays a black hole for good (its stream can never be trusted again): the service
//   must notice and give up on it by itself.

export type ProxyMode = "pass" | "refuse" | "blackhole";

export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  readonly mode: ProxyMode;
  /** Connections accepted since start (counting those refused). */
  readonly accepted: number;
  refuse(): void;
  blackhole(): void;
  restore(): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
  /** Bytes are dropped now. */
  dropped: boolean;
  /** Some bytes were dropped: the pair stays a black hole. */
  lost: boolean;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = "pass";
  let accepted = 0;
  const pairs = new Set<Pair>();
  const orphans = new Set<Socket>();

  const server = createServer((client) => {
    accepted++;
    client.on("error", () => {});
    if (mode === "refuse") {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    upstream.on("error", () => {});
    const pair: Pair = { client, upstream, dropped: mode === "blackhole", lost: false };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      // A black hole tells neither side that the other is gone (until the proxy closes).
      if (pair.dropped) {
        orphans.add(client).add(upstream);
        return;
      }
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("data", (chunk) => {
      if (pair.dropped) pair.lost = true;
      else upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (pair.dropped) pair.lost = true;
      else client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    urlFor(url) {
      const parsed = new URL(url);
      parsed.hostname = "127.0.0.1";
      parsed.port = String(port);
      return parsed.toString();
    },
    get mode() {
      return mode;
    },
    get accepted() {
      return accepted;
    },
    refuse() {
      mode = "refuse";
      for (const pair of pairs) {
        pairs.delete(pair);
        pair.client.resetAndDestroy();
        pair.upstream.destroy();
      }
    },
    blackhole() {
      mode = "blackhole";
      for (const pair of pairs) pair.dropped = true;
    },
    restore() {
      mode = "pass";
      for (const pair of pairs) if (!pair.lost) pair.dropped = false;
    },
    async close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      pairs.clear();
      for (const socket of orphans) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
