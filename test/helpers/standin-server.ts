import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// The HTTP skeleton the providers' loopback stand-ins share (GitHub, Apple, Microsoft): a server
// on a free 127.0.0.1 port whose route's failure is an answer rather than a hung request, a
// bounded body reader, and the two kinds of answer they give.

export type StandinRoute = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface StandinServer {
  /** `http://127.0.0.1:{port}`. */
  url: string;
  /** Closes the server and any connection still open. */
  stop(): Promise<void>;
}

/** Starts `route` on loopback; a route that throws answers 500 through `fault` (plain text by default). */
export async function startStandinServer(
  route: StandinRoute,
  fault: (res: ServerResponse, message: string) => void = (res, message) =>
    text(res, 500, `stand-in error: ${message}`),
): Promise<StandinServer> {
  const server = createServer((req, res) => {
    void route(req, res).catch((err: unknown) => {
      if (!res.headersSent) fault(res, (err as Error).message);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The request's body as text; more than `maxBytes` is an error (a 500 from the route). */
export async function readBody(req: IncomingMessage, maxBytes = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers }).end(JSON.stringify(body));
}

export function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(body);
}
