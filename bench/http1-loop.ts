// A minimal HTTP/1.1 load generator for requests that differ from one to the next, which h2load
// cannot send (one body for every request): each connection writes a prepared request, reads
// its answer up to Content-Length, and writes the next. The signature path (a token never seen
// on each request) and the cached path it is compared with both run on it, so their ratio
// compares the two paths, not two generators.
import { connect, type Socket } from "node:net";
import { runResult, type RunResult } from "./stats.js";

export interface Http1LoopRequest {
  port: number;
  path: string;
  headers: Record<string, string>;
  /** The bodies, sent in turn across all connections. */
  bodies: readonly string[];
  connections: number;
}

const HEADER_END = Buffer.from("\r\n\r\n");

/** Each body as a whole request, written once before the run. */
function prepare(request: Http1LoopRequest): Buffer[] {
  const head = Object.entries({ host: `127.0.0.1:${request.port}`, ...request.headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  return request.bodies.map((body) =>
    Buffer.from(`POST ${request.path} HTTP/1.1\r\n${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
  );
}

/** One timed run; a run fails on the first answer that is not 200 or that it cannot read. */
export async function http1Loop(request: Http1LoopRequest, seconds: number): Promise<RunResult> {
  const prepared = prepare(request);
  let next = 0;
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const one = (socket: Socket) =>
    new Promise<void>((resolve, reject) => {
      let buffered: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      const send = () => {
        if (performance.now() >= deadline) return resolve();
        sentAt = performance.now();
        socket.write(prepared[next++ % prepared.length]);
      };
      socket.on("error", reject);
      socket.on("data", (chunk: Buffer) => {
        buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
        for (;;) {
          const end = buffered.indexOf(HEADER_END);
          if (end < 0) return;
          const head = buffered.subarray(0, end).toString("latin1");
          const length = /\r\ncontent-length: *(\d+)/i.exec(head);
          if (!head.startsWith("HTTP/1.1 200") || !length)
            return reject(new Error(`unexpected answer: ${head.split("\r\n")[0]}`));
          const total = end + HEADER_END.length + Number(length[1]);
          if (buffered.length < total) return;
          buffered = buffered.subarray(total);
          latencies.push(performance.now() - sentAt);
          send();
        }
      });
      send();
    });
  const sockets = await Promise.all(
    Array.from(
      { length: request.connections },
      () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect(request.port, "127.0.0.1", () => resolve(socket));
          socket.setNoDelay(true);
          socket.once("error", reject);
        }),
    ),
  );
  try {
    await Promise.all(sockets.map(one));
  } finally {
    for (const socket of sockets) socket.destroy();
  }
  const elapsed = (performance.now() - started) / 1000;
  return runResult(latencies, elapsed, 0);
}
