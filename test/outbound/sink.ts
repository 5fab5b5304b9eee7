import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

// The receiving end of the outbound tests (post.test.ts, request.test.ts): a real HTTP server on
// loopback, port 0, that counts connections, records requests and answers as a test says.
// A file registers `afterEach(closeSinks)` itself: with the shared module graph of the test
// workers, a hook registered when this module is first imported would belong to one file only.

export interface Sink {
  url: string;
  port: number;
  /** TCP connections accepted, whether or not a request came. */
  connections: number;
  requests: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }[];
  /** Resolves when every accepted connection is closed. */
  allClosed(): Promise<void>;
}

const servers: http.Server[] = [];

/** Closes every sink opened so far, and their connections. */
export async function closeSinks(): Promise<void> {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** A loopback server that records what it receives and answers with `handle` (or never). */
export async function sink(handle?: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Sink> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      state.requests.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      handle?.(req, res);
    });
  });
  server.on("connection", (socket: Socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const state: Sink = {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    connections: 0,
    requests: [],
    async allClosed() {
      await Promise.all([...sockets].map((socket) => new Promise((resolve) => socket.once("close", resolve))));
    },
  };
  return state;
}
